package org.hapticsd.device;

/**
 * A force-feedback device as the real-time loop sees it.
 *
 * <p>Threading: every method except {@link #info()} is called from the loop thread only. {@link #readState}
 * and {@link #commandForce} are called once per tick and must never block and never allocate: a driver that
 * talks to hardware does its I/O on its own thread and hands over the newest complete state.
 *
 * <p>Frames and units: device frame, SI (metres, m/s, newtons, newton-metres), z up, right-handed.
 */
public interface HapticDevice extends AutoCloseable {

    /** Opens the device; afterwards {@link #readState} may be called. */
    void open() throws DeviceException;

    /** Static description and limits of the device; valid after {@link #open()}. */
    DeviceInfo info();

    /**
     * Copies the newest state into {@code dest}.
     *
     * @param nowNs the loop's monotonic time for this tick (read once per tick and passed down)
     * @return {@code true} when {@code dest} holds a state newer than the one returned by the previous call;
     *     {@code false} when no new state arrived (dest then keeps the previous state)
     */
    boolean readState(long nowNs, DeviceState dest);

    /**
     * Commands a force and torque in the device frame, held until the next command. Callers pass values that
     * have already been through the safety layer; a device clamps to its own limits as a last resort.
     */
    void commandForce(double forceXN, double forceYN, double forceZN,
                      double torqueXNm, double torqueYNm, double torqueZNm);

    /**
     * The loop's tick is over: its work is done and its deadline judged. A driver that hands the commanded force to
     * an I/O thread wakes that thread here rather than in {@link #commandForce}: the wake is a system call, and on a
     * busy machine the woken thread can take the caller's CPU, which here costs the loop's idle time instead of its
     * tick. Called once per tick after {@link #commandForce}, loop thread, never blocks. A driver must still send
     * every force when its caller never calls this (it then wakes its thread in {@link #commandForce}).
     */
    default void endOfTick() {
    }

    /** Copies the link health into {@code dest}. */
    void health(long nowNs, DeviceHealth dest);

    /** Commands zero force and releases the device. Idempotent. */
    @Override
    void close();
}
