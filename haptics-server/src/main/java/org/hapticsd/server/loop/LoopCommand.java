package org.hapticsd.server.loop;

/**
 * A request from another thread, carried out on the loop thread at the start of a tick.
 *
 * <p>Commands are created by the sender (allocation happens there, not in the loop) and must not block.
 */
@FunctionalInterface
public interface LoopCommand {

    void applyTo(LoopControl loop);

    /** Zero force from the next tick on, latched until {@link #RESET_SAFETY}. */
    LoopCommand EMERGENCY_STOP = loop -> loop.safety().emergencyStop();

    /** Clears an emergency stop and latched faults; output re-enters the start-up gate. */
    LoopCommand RESET_SAFETY = loop -> loop.safety().reset();
}
