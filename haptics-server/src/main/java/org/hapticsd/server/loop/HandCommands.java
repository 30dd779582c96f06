package org.hapticsd.server.loop;

import org.hapticsd.device.sim.ExternalHandTarget;
import org.hapticsd.device.sim.SimulatedDevice;

/**
 * Commands that steer the simulated stylus's virtual hand from outside the loop: how a client (the web view's
 * mouse drag, a test script) moves the simulated user. They act only when the loop drives a
 * {@link SimulatedDevice}; on a real device they do nothing.
 */
public final class HandCommands {
    private HandCommands() {
    }

    /**
     * Holds the virtual hand at a point in the device frame, replacing the scene's path from the next tick.
     * The target object is made here, on the sender's thread, so the loop only swaps a reference.
     *
     * @throws IllegalArgumentException if a coordinate is not finite (on the sender's thread)
     */
    public static LoopCommand moveHandTo(double xM, double yM, double zM) {
        ExternalHandTarget target = new ExternalHandTarget(xM, yM, zM);
        return loop -> {
            if (loop.device() instanceof SimulatedDevice stylus) {
                stylus.setHandTarget(target);
            }
        };
    }
}
