package org.hapticsd.testsupport;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Does ahead, on the calling thread, the one-off work HotSpot's C2 compiler charges to the thread whose code it is
 * about to compile, so that a zero-allocation test measures the code and not the compiler.
 *
 * <p>When a thread's invocation counters queue a method for C2, {@code CompileBroker::compile_method} first, on that
 * thread, resolves every string constant of the method's class ({@code ConstantPool::resolve_string_constants}: a
 * {@code String} and its {@code byte[]} each, 80 bytes for a 40-character message) and loads the classes of the
 * method's signature through its class's loader ({@code Method::load_signature_classes}: a class the application
 * loader has not been asked for yet costs a lock object, a map node and two strings, 232 bytes for
 * {@code java.lang.StringBuilder}). Each happens once per class, but when is the compiler's choice: the thresholds
 * grow with the length of the compile queue, so on a busy machine a request lands thousands of ticks later, inside a
 * measured window (ZeroAllocationTest, 3 of 8 runs with two other busy processes, the first request for
 * {@code BodyHolds}, {@code ImpulseWaveformModel} and {@code PhysicsWorld.takeOutNonFiniteBodies}; found with
 * JFR's allocation events and {@code -XX:-UseTLAB}).
 *
 * <p>{@link #prime} loads every class of the given code sources without initialising them, resolves their string
 * constants and has their class loader resolve the classes in every declared signature; a later compile request
 * then finds both done and allocates nothing. It changes no behaviour: an allocation the code makes is still
 * counted. It reads the constant pools through {@code jdk.internal.reflect.ConstantPool}, so the test JVM needs
 * {@value #ADD_EXPORTS} (the parent POM passes it to every module's tests).
 */
public final class JitPrimer {

    /** The JVM options {@link #prime} needs. */
    public static final String ADD_EXPORTS = "--add-exports java.base/jdk.internal.access=ALL-UNNAMED"
            + " --add-exports java.base/jdk.internal.reflect=ALL-UNNAMED";

    /** The code sources primed in this JVM: each is primed once, however many tests ask. */
    private static final Set<Path> PRIMED = ConcurrentHashMap.newKeySet();

    private final Object javaLangAccess;
    private final Method constantPoolOf;
    private final Method size;
    private final Method tagAt;
    private final Method stringAt;

    private JitPrimer() {
        try {
            javaLangAccess = Class.forName("jdk.internal.access.SharedSecrets").getMethod("getJavaLangAccess")
                    .invoke(null);
            constantPoolOf = Class.forName("jdk.internal.access.JavaLangAccess")
                    .getMethod("getConstantPool", Class.class);
            Class<?> pool = Class.forName("jdk.internal.reflect.ConstantPool");
            size = pool.getMethod("getSize");
            tagAt = pool.getMethod("getTagAt", int.class);
            stringAt = pool.getMethod("getStringAt", int.class);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the constant pools are not readable: run the test JVM with "
                    + ADD_EXPORTS, e);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("this JVM has no jdk.internal.reflect.ConstantPool as JDK 17 has", e);
        }
    }

    /**
     * Primes every class in the code source (a classes directory or a jar) of each of {@code anchors}: the anchor's
     * module, say, or a library's jar. A code source already primed in this JVM is skipped.
     *
     * @return how many string constants were resolved, over all those classes (0 for those skipped)
     * @throws IllegalStateException when the constant pools cannot be read (see {@link #ADD_EXPORTS})
     */
    public static int prime(Class<?>... anchors) {
        JitPrimer primer = new JitPrimer();
        int strings = 0;
        for (Class<?> anchor : anchors) {
            Path root = codeSource(anchor);
            if (!PRIMED.add(root)) {
                continue;
            }
            strings += primer.primeAll(root, anchor.getClassLoader());
        }
        return strings;
    }

    /**
     * Primes every class on the class path ({@code java.class.path}, which surefire sets to the test class path in
     * its forked JVM): the code under test, its libraries and the tests, whichever of them the measured code reaches.
     *
     * @return how many string constants were resolved (0 for the code sources already primed)
     */
    public static int primeClassPath() {
        JitPrimer primer = new JitPrimer();
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        int strings = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path root = Path.of(entry).toAbsolutePath();
            if (!entry.isEmpty() && Files.exists(root) && PRIMED.add(root)) {
                strings += primer.primeAll(root, loader);
            }
        }
        return strings;
    }

    /**
     * Primes one class: its string constants and the classes of its declared methods' and constructors' signatures.
     *
     * @return how many string constants it has
     */
    public static int primeClass(Class<?> type) {
        return new JitPrimer().primeOne(type);
    }

    private int primeAll(Path root, ClassLoader loader) {
        int strings = 0;
        for (String name : classNames(root)) {
            Class<?> type;
            try {
                type = Class.forName(name, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                continue; // a class of an optional dependency that is absent: never compiled here either
            }
            strings += primeOne(type);
        }
        return strings;
    }

    private int primeOne(Class<?> type) {
        try {
            // Links the class (its constant pool cache is made then: reading an unlinked class's pool crashes the
            // JVM) and resolves each parameter and return type through the class's own loader, as the compile
            // request does.
            type.getDeclaredMethods();
            type.getDeclaredConstructors();
        } catch (LinkageError e) {
            return 0; // it does not link, or a signature names an absent optional class: it never runs here either
        }
        try {
            Object pool = constantPoolOf.invoke(javaLangAccess, type);
            int entries = (int) size.invoke(pool);
            int strings = 0;
            for (int i = 1; i < entries; i++) {
                if ("STRING".equals(tagAt.invoke(pool, i).toString())) {
                    stringAt.invoke(pool, i); // resolves the entry and keeps it, as the compile request would
                    strings++;
                }
            }
            return strings;
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the constant pools are not readable: run the test JVM with "
                    + ADD_EXPORTS, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("reading the constant pool of " + type.getName(), e.getCause());
        }
    }

    private static Path codeSource(Class<?> anchor) {
        CodeSource source = anchor.getProtectionDomain().getCodeSource();
        if (source == null) {
            throw new IllegalArgumentException(anchor.getName() + " is not from the class path (a JDK class?)");
        }
        try {
            return Path.of(source.getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(anchor.getName() + " comes from " + source.getLocation(), e);
        }
    }

    private static List<String> classNames(Path root) {
        List<String> names = new ArrayList<>();
        try {
            if (Files.isDirectory(root)) {
                try (Stream<Path> files = Files.walk(root)) {
                    files.map(root::relativize).map(Path::toString).filter(JitPrimer::isClass)
                            .forEach(file -> names.add(className(file.replace(root.getFileSystem().getSeparator(),
                                    "/"))));
                }
            } else {
                try (JarFile jar = new JarFile(root.toFile())) {
                    jar.stream().map(JarEntry::getName).filter(JitPrimer::isClass)
                            .forEach(file -> names.add(className(file)));
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("listing the classes in " + root, e);
        }
        return names;
    }

    private static boolean isClass(String file) {
        return file.endsWith(".class") && !file.endsWith("module-info.class") && !file.startsWith("META-INF/");
    }

    private static String className(String file) {
        return file.substring(0, file.length() - ".class".length()).replace('/', '.');
    }
}
