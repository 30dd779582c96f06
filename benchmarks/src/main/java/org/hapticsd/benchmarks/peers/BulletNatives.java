package org.hapticsd.benchmarks.peers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Loads Libbulletjme's native library from the classpath.
 *
 * <p>Libbulletjme ships its JNI library in a separate jar per platform and build, classified by build type and
 * flavor ({@code Libbulletjme-Linux64:VERSION:SpRelease} holds {@code native/linux/x86_64/libbulletjme.so}). Its
 * own loader ({@code com.jme3.system.NativeLibraryLoader.loadLibbulletjme}) only loads from a directory on disk,
 * and its documentation leaves extracting the file from the jar to the application (suggesting jSnapLoader). The
 * shade plugin copies the {@code native/} entry into {@code benchmarks.jar} unchanged, so this class does that
 * extraction itself: the resource goes to a fresh temporary directory, is loaded with {@link System#load}, and is
 * deleted at once (Linux keeps a loaded library mapped after its file is gone). A library dependency for twenty
 * lines was the rejected alternative.
 */
final class BulletNatives {
    /** The entry of the classifier jar; the benchmarks module packages the Linux x86_64 build only. */
    static final String RESOURCE = "native/linux/x86_64/libbulletjme.so";

    /** Held so that the level sticks: Libbulletjme logs every body it creates at INFO. */
    private static final Logger LIBBULLETJME_LOG = Logger.getLogger("com.jme3");

    private static boolean loaded;

    private BulletNatives() {
    }

    /** Loads the library once per JVM; later calls return at once. */
    static synchronized void load() {
        if (loaded) {
            return;
        }
        LIBBULLETJME_LOG.setLevel(Level.WARNING);
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new IllegalStateException("Bullet's native library is packaged for Linux x86_64 only, not " + os
                + " " + arch + " (add that platform's Libbulletjme classifier jar to benchmarks/pom.xml)");
        }
        try (InputStream in = BulletNatives.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is not on the classpath: the Libbulletjme-Linux64 "
                    + "SpRelease jar is missing from the benchmarks jar");
            }
            Path dir = Files.createTempDirectory("hapticsd-bullet");
            Path library = dir.resolve("libbulletjme.so");
            try {
                Files.copy(in, library);
                System.load(library.toAbsolutePath().toString());
            } finally {
                Files.deleteIfExists(library);
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + RESOURCE, e);
        }
        loaded = true;
    }
}
