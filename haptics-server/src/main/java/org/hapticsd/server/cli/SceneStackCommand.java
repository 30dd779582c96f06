package org.hapticsd.server.cli;

import java.nio.file.Path;
import org.hapticsd.server.scene.CubeStack;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code hapticsd scene stack}: the benchmark's stack of ten cubes on a floor ({@link CubeStack}). */
@Command(name = "stack", mixinStandardHelpOptions = true,
    description = "Write the scene of " + CubeStack.BENCHMARK_CUBES + " cubes (0.1 m edge, 1 kg, friction 0.5) "
        + "stacked on a floor: the physics validation's stack.")
final class SceneStackCommand implements java.util.concurrent.Callable<Integer> {
    @ParentCommand
    SceneCommand scene;

    @Option(names = "--out", paramLabel = "FILE", description = "Scene file to write. Default: standard output.")
    Path out;

    @Override
    public Integer call() {
        CubeStack stack = new CubeStack(CubeStack.BENCHMARK_CUBES);
        SceneCommand.emit(stack.yaml(), out, scene.parent.out(),
            "cube-stack-" + stack.cubes() + " (" + stack.cubes() + " cubes)");
        return Main.EXIT_OK;
    }
}
