package org.hapticsd.server.cli;

import java.nio.file.Path;
import org.hapticsd.server.scene.SpherePile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code hapticsd scene pile --spheres N}: the sphere pile of the scale series ({@link SpherePile}). */
@Command(name = "pile", mixinStandardHelpOptions = true,
    description = "Write the scene of N spheres (r = 0.05 m, 1 kg) dropped into an open 1 m box: the physics "
        + "validation's pile and scale series.")
final class ScenePileCommand implements java.util.concurrent.Callable<Integer> {
    @ParentCommand
    SceneCommand scene;

    @Option(names = "--spheres", paramLabel = "N", required = true, description = "Number of spheres, 1.." + SpherePile.MAX_SPHERES + ".")
    int spheres;

    @Option(names = "--out", paramLabel = "FILE", description = "Scene file to write. Default: standard output.")
    Path out;

    @Override
    public Integer call() {
        SpherePile pile;
        try {
            pile = new SpherePile(spheres);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--spheres: " + e.getMessage());
        }
        SceneCommand.emit(pile.yaml(), out, scene.parent.out(), "pile-" + spheres + " (" + spheres
            + (spheres == 1 ? " sphere)" : " spheres)"));
        return Main.EXIT_OK;
    }
}
