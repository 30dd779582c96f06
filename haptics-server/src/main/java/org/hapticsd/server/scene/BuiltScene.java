package org.hapticsd.server.scene;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.device.sim.SimulatedDeviceConfig;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.safety.SafetyConfig;

/**
 * A scene file turned into runtime objects, ready for one loop.
 *
 * @param name        the scene's name
 * @param haptic      physics world, tool body and device mapping; owned by the loop once it starts
 * @param bodyNames   the scene's named bodies in file order (the tool is not among them)
 * @param bodyIndices world index of each named body, parallel to {@code bodyNames}
 * @param safety      safety limits from the scene
 * @param rateHz      the scene's loop rate
 * @param simDevice   mechanics of the simulated stylus
 * @param handTargets makes the virtual hand's target (a fresh one per device: path targets keep a cursor)
 * @param warnings    what the build found legal but likely not meant, one line each (a contact spring stiff enough
 *                    for a body's mass to bounce it by itself); the server logs them, {@code test} notes them
 * @param meshFiles   the mesh files the scene read, resolved: inputs an output option must not overwrite
 */
public record BuiltScene(String name, HapticScene haptic, List<String> bodyNames, int[] bodyIndices,
                         SafetyConfig safety, int rateHz, SimulatedDeviceConfig simDevice,
                         Supplier<HandTarget> handTargets, List<String> warnings, List<Path> meshFiles) {

    /** A new, unopened simulated stylus moved by this scene's virtual hand. */
    public SimulatedDevice newSimulatedDevice() {
        return new SimulatedDevice(simDevice, handTargets.get());
    }
}
