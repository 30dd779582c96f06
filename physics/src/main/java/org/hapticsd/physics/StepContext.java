package org.hapticsd.physics;

import java.util.function.LongSupplier;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * What every stage of one {@link PhysicsWorld#step} reads: the time step and its inverse, the iteration counts,
 * the contact settings and gravity (Box2D's {@code b2StepContext}, box2d {@code src/solver.h}). One instance per
 * world, refilled at the start of each step, so settings changed between steps take effect whole at the next one
 * and no stage re-derives {@code 1/Δt}.
 */
public final class StepContext {

    private double dtS;
    private double inverseDtPerS;
    private ContactSettings settings;
    private final Vector3d gravityMps2 = new Vector3d();
    private boolean hasSweepDeadline;
    private long sweepDeadlineNs;
    private LongSupplier clock = System::nanoTime;

    StepContext() {
    }

    /** The world's clock ({@link PhysicsWorld#setClock}). */
    void clock(LongSupplier nanoClock) {
        this.clock = nanoClock;
    }

    void refill(double dtS, ContactSettings settings, Vector3dc gravityMps2) {
        this.dtS = dtS;
        this.inverseDtPerS = 1.0 / dtS;
        this.settings = settings;
        this.gravityMps2.set(gravityMps2);
        this.hasSweepDeadline = false;
    }

    /** Whether this step was given a deadline for its sweeps. */
    boolean hasSweepDeadline() {
        return hasSweepDeadline;
    }

    /** This step's sweeps end at {@code deadlineNs} on the world's clock (see {@link #pastSweepDeadline()}). */
    void sweepDeadline(long deadlineNs) {
        this.hasSweepDeadline = true;
        this.sweepDeadlineNs = deadlineNs;
    }

    /**
     * Whether the step was given a deadline for its solver sweeps ({@link PhysicsWorld#step(double, long)}) and the
     * world's clock ({@link PhysicsWorld#nanoTime()}) has reached it. A solver asks between sweeps, after its first
     * full sweep, and stops there: the step does less work, not more than it was given time for. Always false for a
     * step without a deadline, so that a step on simulated time computes the same thing on every machine.
     */
    public boolean pastSweepDeadline() {
        return hasSweepDeadline && clock.getAsLong() - sweepDeadlineNs >= 0;
    }

    /** The step {@code Δt}, s. */
    public double dtS() {
        return dtS;
    }

    /** {@code 1/Δt}, 1/s. */
    public double inverseDtPerS() {
        return inverseDtPerS;
    }

    /** Gravitational acceleration, m/s². */
    public Vector3dc gravityMps2() {
        return gravityMps2;
    }

    /** The scene's contact settings for this step. */
    public ContactSettings settings() {
        return settings;
    }

    /** Velocity sweeps of the projected Gauss–Seidel solver. */
    public int lcpIterations() {
        return settings.lcpIterations();
    }

    /** Sweeps of the position-correction solver. */
    public int positionIterations() {
        return settings.positionIterations();
    }

    /** {@link ContactSettings#lcpSweepBudget()}: the most velocity-sweep work per step, in full sweeps. */
    public double lcpSweepBudget() {
        return settings.lcpSweepBudget();
    }

    /** {@link ContactSettings#lcpTolerance()}: the relative impulse change that ends the sweeps early. */
    public double lcpTolerance() {
        return settings.lcpTolerance();
    }
}
