package org.hapticsd.device.sim;

/**
 * A hand target whose time starts when another thread says so: before {@link #start()} the hand holds the path's
 * first point; from the first {@link #targetAt} after it, the path runs from its time 0. A device model that
 * runs on its own clock (the emulator's firmware thread) can then follow a script whose time starts with the
 * server's first tick, without either thread reading the other's clock.
 */
public final class DeferredStartHandTarget implements HandTarget {
    private final HandTarget path;
    /** Written before {@link #startRequested}, so visible to whoever reads that as true. */
    private long startRequestedNs;
    private volatile boolean startRequested;
    private boolean started;
    private double originS;

    public DeferredStartHandTarget(HandTarget path) {
        if (path == null) {
            throw new IllegalArgumentException("path must not be null");
        }
        this.path = path;
    }

    /**
     * Any thread: the path starts at the next {@link #targetAt} call. Idempotent, and after the first call a read
     * only, so a loop may call it on every tick.
     */
    public void start() {
        if (!startRequested) {
            startRequestedNs = System.nanoTime();
            startRequested = true;
        }
    }

    /** When {@link #start()} was first called, on {@code System.nanoTime()}; 0 before. Any thread. */
    public long startRequestedNs() {
        return startRequested ? startRequestedNs : 0L;
    }

    @Override
    public void targetAt(double tSeconds, double[] positionOut3) {
        if (!started && startRequested) {
            started = true;
            originS = tSeconds;
        }
        path.targetAt(started ? Math.max(0.0, tSeconds - originS) : 0.0, positionOut3);
    }

    /** The path's mode at the same shifted time; before the start, the mode at its time 0. */
    @Override
    public int modeAt(double tSeconds, double[] forceOut3) {
        return path.modeAt(started ? Math.max(0.0, tSeconds - originS) : 0.0, forceOut3);
    }

    /** The path's buttons at the same shifted time; before the start, those at its time 0. */
    @Override
    public int buttonsAt(double tSeconds) {
        return path.buttonsAt(started ? Math.max(0.0, tSeconds - originS) : 0.0);
    }
}
