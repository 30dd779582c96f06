package org.hapticsd.server;

import org.agrona.concurrent.NanoClock;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.HapticLoop;
import org.hapticsd.server.loop.LoopStats;
import org.hapticsd.server.loop.SnapshotExchange;
import org.hapticsd.server.loop.TickSchedule;
import org.hapticsd.server.safety.SafetyConfig;
import org.hapticsd.server.safety.SafetyLayer;
import org.hapticsd.server.scene.BuiltScene;

/**
 * One loop wired to a scene and an open device, with the objects other threads use to talk to it: the command
 * queue in, the snapshot exchange and the statistics out.
 */
public final class LoopAssembly {
    /** Until {@link #releaseScene()}: the scene the loop started with. */
    private BuiltScene scene;
    private final HapticDevice device;
    private final int rateHz;
    private final LoopStats stats = new LoopStats();
    private final CommandQueue commands = new CommandQueue();
    private final SnapshotExchange snapshots;
    private final SafetyLayer safety;
    private final HapticLoop loop;

    /**
     * @param device     an opened device; the loop owns it from now on and closes it when it stops
     * @param stageTimer wall clock used to time stages
     */
    public LoopAssembly(BuiltScene scene, HapticDevice device, int rateHz, NanoClock stageTimer) {
        this(scene, device, rateHz, stageTimer, scene.safety());
    }

    /**
     * @param safetyConfig the safety limits, when they are not the scene's own (a device slower than the loop:
     *                     {@link SafetyConfig#forDeviceRate})
     */
    public LoopAssembly(BuiltScene scene, HapticDevice device, int rateHz, NanoClock stageTimer,
                        SafetyConfig safetyConfig) {
        this.scene = scene;
        this.device = device;
        this.rateHz = rateHz;
        long periodNs = TickSchedule.periodNsFor(rateHz);
        this.snapshots = SnapshotExchange.forWorld(scene.haptic().world());
        this.safety = new SafetyLayer(safetyConfig, device.info().maxForceN(),
            Math.min(device.info().maxContinuousForceN(), device.info().maxForceN()));
        this.loop = new HapticLoop(scene.haptic(), device, safety, stats, commands, snapshots, stageTimer, periodNs);
    }

    /** The scene the loop started with; null after {@link #releaseScene()}. */
    public BuiltScene scene() {
        return scene;
    }

    /**
     * Drops this assembly's reference to the first scene, once whatever needed it (the stream's first SCENE) has it:
     * the loop owns the live scene, and after a LOAD_SCENE or RESET_SCENE the first one must be garbage. Holding it
     * kept two worlds alive, so a scene that fit the heap could not be reset (a tester, at 128 MB).
     */
    public void releaseScene() {
        scene = null;
    }

    public HapticDevice device() {
        return device;
    }

    public int rateHz() {
        return rateHz;
    }

    public LoopStats stats() {
        return stats;
    }

    public CommandQueue commands() {
        return commands;
    }

    public SnapshotExchange snapshots() {
        return snapshots;
    }

    public SafetyLayer safety() {
        return safety;
    }

    public HapticLoop loop() {
        return loop;
    }
}
