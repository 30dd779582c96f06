package org.hapticsd.physics.dynamics;

import org.hapticsd.physics.StepContext;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Semi-implicit (symplectic) Euler for rigid bodies, split around the contact solve as source 003 orders the step
 * (constraint forces → velocity update → position update):
 * <ol>
 *   <li>{@link #applyForces}: {@code v ← v + Δt·(g + F/m)}, {@code ω ← gyro(ω) + Δt·I⁻¹·τ}, then damping —
 *       the velocity the contacts would see without contact forces (source 003's {@code b});</li>
 *   <li>the contact solver changes these velocities by impulses;</li>
 *   <li>{@link #integratePositions}: {@code x ← x + Δt·v}, {@code q ← normalise(q + ½·(0, ω)·q·Δt)} with the new
 *       velocities.</li>
 * </ol>
 * Updating positions with the new velocity is what makes the scheme symplectic: for a mass on a spring the energy
 * error stays bounded instead of growing (explicit Euler) or decaying (implicit Euler), and the stability bound is
 * {@code ω·Δt < 2}. Its error is first order: free fall gives {@code z_n = z₀ − ½·g·t² − ½·g·Δt·t}.
 *
 * <p>Only dynamic bodies are integrated. A kinematic body stays where its owner put it: its velocity is what the
 * contacts see, not something the world integrates (the device sets the tool's pose every tick).
 */
public final class RigidBodyIntegrator {

    private final Vector3d omegaBody = new Vector3d();
    private final Vector3d scratch = new Vector3d();

    /**
     * Adds gravity, the accumulated external force and torque, the gyroscopic term and damping to the velocities
     * of dynamic bodies, then clears the accumulators. Damping is implicit, {@code v ← v/(1 + c·Δt)} (Box2D), so
     * any rate is stable.
     */
    public void applyForces(StepContext context, RigidBodies bodies) {
        for (int body = 0; body < bodies.count; body++) {
            applyForces(context, bodies, body);
        }
    }

    /** {@link #applyForces(StepContext, RigidBodies)} for the bodies {@code list[0 .. count − 1]} (a lane's). */
    public void applyForces(StepContext context, RigidBodies bodies, int[] list, int count) {
        for (int k = 0; k < count; k++) {
            applyForces(context, bodies, list[k]);
        }
    }

    private void applyForces(StepContext context, RigidBodies bodies, int body) {
        if (!bodies.dynamic[body]) {
            return;
        }
        double dt = context.dtS();
        Vector3dc g = context.gravityMps2();
        Vector3d v = bodies.linearVelocityMps[body];
        Vector3d f = bodies.forceN[body];
        double inverseMass = bodies.inverseMassPerKg[body];
        v.x += dt * (g.x() + f.x * inverseMass);
        v.y += dt * (g.y() + f.y * inverseMass);
        v.z += dt * (g.z() + f.z * inverseMass);
        v.mul(1.0 / (1.0 + dt * bodies.linearDampingPerS[body]));

        Vector3d w = bodies.angularVelocityRadps[body];
        if (!bodies.isotropic[body]) {
            // Euler's equation in the body frame, where the inertia is constant: ω_body = Rᵀ·ω. An isotropic
            // body (I = c·E) has ω × I·ω = 0: the torque-free step leaves ω as it is, so it is skipped.
            Quaterniond q = bodies.orientation[body];
            q.transformInverse(w, omegaBody);
            GyroscopicStep.implicitMidpoint(bodies.inertiaBody[body], dt, omegaBody);
            q.transform(omegaBody, w);
        }
        bodies.inverseInertiaWorld[body].transform(bodies.torqueNm[body], scratch);
        w.fma(dt, scratch);
        w.mul(1.0 / (1.0 + dt * bodies.angularDampingPerS[body]));

        f.zero();
        bodies.torqueNm[body].zero();
    }

    /**
     * {@code x ← x + Δt·v} and {@code q ← normalise(q + ½·(0, ω)·q·Δt)} for every dynamic body; a body with a
     * {@link RigidBodies#maxStepDistanceM} first has its velocity cut to carry it no farther.
     */
    public void integratePositions(StepContext context, RigidBodies bodies) {
        for (int body = 0; body < bodies.count; body++) {
            integratePosition(context, bodies, body);
        }
    }

    /** {@link #integratePositions(StepContext, RigidBodies)} for the bodies {@code list[0 .. count − 1]}. */
    public void integratePositions(StepContext context, RigidBodies bodies, int[] list, int count) {
        for (int k = 0; k < count; k++) {
            integratePosition(context, bodies, list[k]);
        }
    }

    private static void integratePosition(StepContext context, RigidBodies bodies, int body) {
        if (!bodies.dynamic[body]) {
            return;
        }
        double dt = context.dtS();
        Vector3d v = bodies.linearVelocityMps[body];
        double limitM = bodies.maxStepDistanceM[body];
        if (limitM != Double.POSITIVE_INFINITY) {
            double stepM = v.length() * dt;
            if (stepM > limitM) {
                v.mul(limitM / stepM);
            }
        }
        bodies.positionM[body].fma(dt, v);
        integrateOrientation(bodies.orientation[body], bodies.angularVelocityRadps[body], dt);
    }

    /** Zeroes the pseudo-velocities before the position correction. */
    public void clearPseudoVelocities(RigidBodies bodies) {
        for (int body = 0; body < bodies.count; body++) {
            bodies.pseudoLinearVelocityMps[body].zero();
            bodies.pseudoAngularVelocityRadps[body].zero();
        }
    }

    /** {@link #clearPseudoVelocities(RigidBodies)} for the bodies {@code list[0 .. count − 1]}. */
    public void clearPseudoVelocities(RigidBodies bodies, int[] list, int count) {
        for (int k = 0; k < count; k++) {
            bodies.pseudoLinearVelocityMps[list[k]].zero();
            bodies.pseudoAngularVelocityRadps[list[k]].zero();
        }
    }

    /**
     * Moves each dynamic body by {@code Δt} times its pseudo-velocity from the position correction; the
     * pseudo-velocity is then forgotten (split impulse), so the correction changes positions, not momentum.
     */
    public void applyPseudoVelocities(StepContext context, RigidBodies bodies) {
        for (int body = 0; body < bodies.count; body++) {
            applyPseudoVelocity(context, bodies, body);
        }
    }

    /** {@link #applyPseudoVelocities(StepContext, RigidBodies)} for the bodies {@code list[0 .. count − 1]}. */
    public void applyPseudoVelocities(StepContext context, RigidBodies bodies, int[] list, int count) {
        for (int k = 0; k < count; k++) {
            applyPseudoVelocity(context, bodies, list[k]);
        }
    }

    private static void applyPseudoVelocity(StepContext context, RigidBodies bodies, int body) {
        if (!bodies.dynamic[body]) {
            return;
        }
        double dt = context.dtS();
        Vector3d w = bodies.pseudoAngularVelocityRadps[body];
        bodies.positionM[body].fma(dt, bodies.pseudoLinearVelocityMps[body]);
        if (w.x != 0.0 || w.y != 0.0 || w.z != 0.0) {
            integrateOrientation(bodies.orientation[body], w, dt);
        }
    }

    /**
     * {@code q ← normalise(q + ½·(0, ω)·q·Δt)}: the quaternion derivative {@code q̇ = ½·ω̃·q} for a world-frame
     * {@code ω} (left multiplication), one Euler step, then renormalisation, which removes the length error of
     * order {@code (|ω|·Δt)²} the step adds. The increment {@code (1, ½·ω·Δt)} is a rotation about {@code ω}
     * itself, so {@code ω} seen from the body does not change, which keeps the gyroscopic step's conservation.
     */
    public static void integrateOrientation(Quaterniond q, Vector3dc omega, double dt) {
        double halfDt = 0.5 * dt;
        double wx = omega.x() * halfDt;
        double wy = omega.y() * halfDt;
        double wz = omega.z() * halfDt;
        double qx = q.x;
        double qy = q.y;
        double qz = q.z;
        double qw = q.w;
        // (ω, 0)·(q_v, q_w) = (q_w·ω + ω × q_v, −ω·q_v)
        q.set(qx + qw * wx + (wy * qz - wz * qy),
                qy + qw * wy + (wz * qx - wx * qz),
                qz + qw * wz + (wx * qy - wy * qx),
                qw - (wx * qx + wy * qy + wz * qz));
        if (!Double.isFinite(q.lengthSquared())) {
            // |ω|·Δt so large (beyond about 1e154) that the length overflows: normalising would divide by ∞ and
            // leave a zero quaternion, finite but no rotation. NaN instead, which the step's finiteness check
            // reports, taking the body out (PhysicsWorld's STORE_IMPULSES).
            q.set(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            return;
        }
        q.normalize();
    }
}
