package org.hapticsd.server.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hapticsd.server.render.ToolStiffness;
import org.hapticsd.server.scene.BuiltScene;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code hapticsd scene check FILE...}: each scene file loaded, built and judged as {@code run} would on its defaults
 * (the simulated stylus its {@code device} section describes, the stream on), without running it: for a scene author,
 * or a CI job over a folder of scenes. A file that {@code run} would refuse fails, with {@code run}'s one line; the
 * warnings {@code run} would log (a tool spring the device cannot render passively, one above its rating, the
 * builder's own) are printed under the file's line.
 *
 * <p>Exit 0 when every file builds (warnings or not); 1 with {@code --strict} when one has warnings; 2 when one fails,
 * as {@code run} exits on a bad scene.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Load, build and judge each scene file as run would (its simulated stylus, the stream on), without "
        + "running it: OK, its warnings, or why run would refuse it. Exit 0 when all build, 1 with --strict when one "
        + "has warnings, 2 when one fails.")
final class SceneCheckCommand implements java.util.concurrent.Callable<Integer> {
    @ParentCommand
    SceneCommand scene;

    @Option(names = "--rate", paramLabel = "HZ",
        description = "Judge every scene at this loop rate instead of its own rateHz (as run --rate).")
    Integer rateHz;

    @Option(names = "--strict", description = "Exit 1 when a scene builds with warnings.")
    boolean strict;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Scene files (YAML).")
    List<Path> files = new ArrayList<>();

    @Override
    public Integer call() {
        if (rateHz != null) {
            // The flag's misuse, once and on standard error: it was a FAIL line per file, blamed on the scenes.
            LoopOptions.checkRate(rateHz);
        }
        PrintWriter out = scene.parent.out();
        int failed = 0;
        int warned = 0;
        for (Path file : files) {
            LoopOptions options = new LoopOptions();
            options.scene = file;
            options.rateHz = rateHz;
            BuiltScene built;
            int rate;
            List<String> warnings = new ArrayList<>();
            try {
                built = options.loadScene();
                rate = options.rateHz(built);
                options.requireStreamable(built, rate);
                warnings.addAll(built.warnings());
                warnings.addAll(ToolStiffness.warnings(built.name(), built.haptic(), built.newSimulatedDevice().info(),
                    rate));
            } catch (UsageException | LoopOptions.SceneLoadFailure e) {
                failed++;
                out.println("FAIL " + e.getMessage());
                out.flush();
                continue;
            }
            warned += warnings.isEmpty() ? 0 : 1;
            out.println(String.format(Locale.ROOT, "%s %s: scene '%s', %d bod%s%s, tool rendered by %s, %d Hz%s",
                warnings.isEmpty() ? "OK  " : "WARN", file, built.name(), built.bodyNames().size(),
                built.bodyNames().size() == 1 ? "y" : "ies", deformables(built),
                rendering(built), rate,
                warnings.isEmpty() ? "" : ", " + warnings.size() + " warning" + (warnings.size() == 1 ? "" : "s")));
            for (String warning : warnings) {
                out.println("  " + warning);
            }
            out.flush();
        }
        out.println(String.format(Locale.ROOT, "%d scene%s: %d built (%d with warnings), %d failed", files.size(),
            files.size() == 1 ? "" : "s", files.size() - failed, warned, failed));
        out.flush();
        if (failed > 0) {
            return Main.EXIT_USAGE;
        }
        return strict && warned > 0 ? Main.EXIT_FAILURE : Main.EXIT_OK;
    }

    /** The scene's {@code tool.rendering}, as the file names it. */
    private static String rendering(BuiltScene built) {
        return built.haptic().coupling() != null ? "coupling" : built.haptic().proxy() != null ? "proxy" : "contact";
    }

    private static String deformables(BuiltScene built) {
        int n = built.haptic().world().deformableCount();
        return n == 0 ? "" : String.format(Locale.ROOT, " and %d deformable%s", n, n == 1 ? "" : "s");
    }
}
