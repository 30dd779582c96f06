package org.hapticsd.server.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.DoubleConsumer;
import org.hapticsd.device.DeviceException;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.server.loop.TickSchedule;
import org.hapticsd.server.record.ReplayDevice;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.DeviceSpec;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;
import picocli.CommandLine.Option;

/** Options shared by the commands that run the loop: which scene, which device, what rate. */
final class LoopOptions {
    static final String SIM_DEVICE = "sim";
    static final String REPLAY_PREFIX = "replay:";

    @Option(names = "--scene", paramLabel = "FILE",
        description = "Scene file (YAML). Default: the embedded scenes/wall.yaml.")
    Path scene;

    @Option(names = "--device", paramLabel = "DEVICE", defaultValue = SIM_DEVICE,
        description = "Device to drive: sim (the simulated stylus) or replay:FILE (a tick recording played back). "
            + "Default: ${DEFAULT-VALUE}.")
    String device;

    @Option(names = "--sim-mass", paramLabel = "KG",
        description = "Simulated stylus: moving mass (overrides device.massKg).")
    Double simMassKg;

    @Option(names = "--sim-damping", paramLabel = "NS/M",
        description = "Simulated stylus: mechanism damping (overrides device.dampingNspm).")
    Double simDampingNspm;

    @Option(names = "--hand-stiffness", paramLabel = "N/M",
        description = "Simulated stylus: virtual hand spring (overrides device.hand.stiffnessNpm).")
    Double handStiffnessNpm;

    @Option(names = "--hand-damping", paramLabel = "NS/M",
        description = "Simulated stylus: virtual hand damping (overrides device.hand.dampingNspm).")
    Double handDampingNspm;

    @Option(names = "--hand-target", paramLabel = "X,Y,Z", split = ",",
        description = "Simulated stylus: hold the virtual hand at this point in metres (device frame) instead of "
            + "following the scene's path.")
    double[] handTargetM;

    @Option(names = "--rate", paramLabel = "HZ",
        description = "Loop rate, " + TickSchedule.MIN_RATE_HZ + ".." + TickSchedule.MAX_RATE_HZ
            + " Hz. Default: the scene's rateHz (1000).")
    Integer rateHz;

    /** Loads and builds the scene, or throws a {@link UsageException} naming file, line and field. */
    BuiltScene loadScene() {
        SceneLoader loader = new SceneLoader();
        try {
            SceneSpec spec = scene == null ? loader.loadEmbedded() : loader.load(scene);
            applyDeviceOverrides(spec.device());
            return SceneBuilder.build(spec);
        } catch (SceneException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** Command-line values for the simulated stylus, checked by the same setters as the scene file's. */
    private void applyDeviceOverrides(DeviceSpec device) {
        override("--sim-mass", simMassKg, device::setMassKg);
        override("--sim-damping", simDampingNspm, device::setDampingNspm);
        override("--hand-stiffness", handStiffnessNpm, device.hand()::setStiffnessNpm);
        override("--hand-damping", handDampingNspm, device.hand()::setDampingNspm);
        if (handTargetM != null) {
            try {
                device.hand().setTarget(handTargetM);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--hand-target: expected X,Y,Z in metres: " + e.getMessage());
            }
            device.hand().setPath(List.of());
        }
    }

    private static void override(String option, Double value, DoubleConsumer setter) {
        if (value == null) {
            return;
        }
        try {
            setter.accept(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException(option + ": " + e.getMessage());
        }
    }

    int rateHz(BuiltScene built) {
        int rate = rateHz == null ? built.rateHz() : rateHz;
        if (rate < TickSchedule.MIN_RATE_HZ || rate > TickSchedule.MAX_RATE_HZ) {
            throw new UsageException("--rate must be " + TickSchedule.MIN_RATE_HZ + ".." + TickSchedule.MAX_RATE_HZ
                + " Hz, got " + rate);
        }
        return rate;
    }

    /** Opens the device named by {@code --device}. */
    HapticDevice openDevice(BuiltScene built) {
        HapticDevice opened;
        if (SIM_DEVICE.equals(device)) {
            opened = built.newSimulatedDevice();
        } else if (device.startsWith(REPLAY_PREFIX)) {
            Path file = Path.of(device.substring(REPLAY_PREFIX.length()));
            try {
                opened = new ReplayDevice(file);
            } catch (IOException e) {
                throw new UsageException("--device " + device + ": " + e.getMessage());
            }
        } else {
            throw new UsageException("--device: unknown device '" + device + "' (this build supports: sim, replay:FILE)");
        }
        try {
            opened.open();
        } catch (DeviceException e) {
            opened.close();
            throw new UsageException("--device " + device + ": " + e.getMessage());
        }
        return opened;
    }

    static double positiveSeconds(String option, double seconds) {
        if (!(seconds > 0) || Double.isInfinite(seconds)) {
            throw new UsageException(option + " must be a positive number of seconds, got " + seconds);
        }
        return seconds;
    }
}
