package org.hapticsd.server.loop;

import org.hapticsd.device.HapticDevice;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.server.render.DeviceMapping;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.safety.SafetyLayer;

/** What a {@link LoopCommand} may act on. Implemented by the loop; used only on the loop thread. */
public interface LoopControl {

    SafetyLayer safety();

    HapticDevice device();

    /** The scene's world as the loop steps it now (it changes when the scene is replaced). */
    PhysicsWorld world();

    /** Device workspace → scene, for the scene the loop runs now. */
    DeviceMapping mapping();

    /**
     * Freezes or continues the simulation. While paused the world is not stepped and the rendered force is zero;
     * either change sends force back through the safety layer's start-up gate, so nothing jumps on the hand.
     */
    void setPaused(boolean paused);

    boolean paused();

    /** The tick now running: the number its published snapshot carries (the first of a scene swapped in now). */
    long currentTick();

    /**
     * Multiplies the rendered force by {@code scale} (0..1) before the safety layer; a remote user may soften the
     * scene, never strengthen it.
     *
     * @throws IllegalArgumentException outside [0, 1]
     */
    void setForceScale(double scale);

    /**
     * Adds a known force to what the loop renders, from this tick on, for a device-in-the-loop script's
     * {@code renderForce} step: {@code (x, y, z)} N in the device frame, constant when {@code frequencyHz} is 0, else
     * {@code (x, y, z)·sin(2π·f·t)} with t counted from this tick. It goes to the safety layer like any rendered force
     * (gate, ramp, slew, clamp, thermal limit) and is not scaled by {@link #setForceScale}. (0, 0, 0) stops it.
     *
     * @throws IllegalArgumentException for a force that is not finite, or a frequency that is not finite and
     *                                  {@code >= 0}
     */
    void setTestForce(double xN, double yN, double zN, double frequencyHz);

    /**
     * Runs {@code scene} from this tick on, publishing into {@code exchange} from {@code snapshot} (made by
     * {@code exchange}, off the loop thread). Force goes back through the start-up gate.
     *
     * @throws IllegalArgumentException if {@code snapshot} is not sized for the scene's world
     */
    void replaceScene(HapticScene scene, SnapshotExchange exchange, LoopSnapshot snapshot);
}
