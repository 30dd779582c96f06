package org.hapticsd.physics;

import java.util.Arrays;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.joml.Vector3d;

/**
 * Rigid bodies held by other bodies (the tool's grab of a dynamic body): a spring and damper between the holder's
 * centre and a point fixed on the held body, the anchor, which is where the holder's centre was when the hold began,
 * so a hold starts unstretched. The held body feels {@code F = k·(x_holder − x_anchor) + b·(v_holder − v_anchor)} at
 * the anchor (a force and a torque), the holder {@code −F} at its centre. A held pair does not also collide.
 *
 * <p>Explicit like the deformable coupling: the force is computed from the start-of-step state and applied through
 * the velocity integration, so {@code k·Δt² + 2·b·Δt < 4·m_a} must hold, with {@code m_a} the held body's effective
 * mass at the anchor ({@link #anchorEffectiveMassKg}: below the body's mass when the anchor is off the centre, which
 * lets the body turn). One hold per holder; at most {@value #CAPACITY} at once. Allocates only when built.
 */
final class BodyHolds {
    static final int CAPACITY = 8;

    private final int[] holder = new int[CAPACITY];
    private final int[] held = new int[CAPACITY];
    private final double[] stiffnessNpm = new double[CAPACITY];
    private final double[] dampingNspm = new double[CAPACITY];
    /** The anchor in the held body's frame, relative to its centre of mass. */
    private final Vector3d[] anchorBodyM = new Vector3d[CAPACITY];
    /** This step's force on the held body, and its torque about the body's centre, for the contact report. */
    private final Vector3d[] forceN = new Vector3d[CAPACITY];
    private final Vector3d[] torqueNm = new Vector3d[CAPACITY];
    private int count;
    private final Vector3d leverArmM = new Vector3d();
    private final Vector3d anchorVelocityMps = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d noTorque = new Vector3d();

    BodyHolds() {
        Arrays.setAll(anchorBodyM, i -> new Vector3d());
        Arrays.setAll(forceN, i -> new Vector3d());
        Arrays.setAll(torqueNm, i -> new Vector3d());
    }

    /** Whether any body is held now. */
    boolean any() {
        return count > 0;
    }

    /**
     * Starts holding {@code body} by {@code holderBody}, anchored where the holder's centre is now; replaces the
     * holder's earlier hold.
     *
     * @throws IllegalStateException when {@value #CAPACITY} other holders already hold a body
     */
    void hold(RigidBodies bodies, int holderBody, int body, double k, double b) {
        int slot = slotOf(holderBody);
        if (slot < 0) {
            if (count == CAPACITY) {
                throw new IllegalStateException("at most " + CAPACITY + " bodies can be held at once");
            }
            slot = count++;
        }
        holder[slot] = holderBody;
        held[slot] = body;
        stiffnessNpm[slot] = k;
        dampingNspm[slot] = b;
        // The anchor in the body frame: Rᵀ·(x_holder − x_body).
        bodies.positionM[holderBody].sub(bodies.positionM[body], anchorBodyM[slot]);
        bodies.orientation[body].transformInverse(anchorBodyM[slot]);
        forceN[slot].zero();
        torqueNm[slot].zero();
    }

    /** Lets go of what {@code holderBody} holds, if anything. */
    void release(int holderBody) {
        int slot = slotOf(holderBody);
        if (slot < 0) {
            return;
        }
        count--;
        holder[slot] = holder[count];
        held[slot] = held[count];
        stiffnessNpm[slot] = stiffnessNpm[count];
        dampingNspm[slot] = dampingNspm[count];
        anchorBodyM[slot].set(anchorBodyM[count]);
        forceN[slot].set(forceN[count]);
        torqueNm[slot].set(torqueNm[count]);
    }

    /** The body {@code holderBody} holds, or −1. */
    int heldBy(int holderBody) {
        int slot = slotOf(holderBody);
        return slot < 0 ? -1 : held[slot];
    }

    /** The spring of {@code holderBody}'s hold, N/m; 0 when it holds nothing. */
    double stiffnessOf(int holderBody) {
        int slot = slotOf(holderBody);
        return slot < 0 ? 0.0 : stiffnessNpm[slot];
    }

    /** The damper of {@code holderBody}'s hold, N·s/m; 0 when it holds nothing. */
    double dampingOf(int holderBody) {
        int slot = slotOf(holderBody);
        return slot < 0 ? 0.0 : dampingNspm[slot];
    }

    /** Copies the anchor of {@code holderBody}'s hold, world frame, into {@code destM}; unchanged when none. */
    Vector3d anchor(RigidBodies bodies, int holderBody, Vector3d destM) {
        int slot = slotOf(holderBody);
        if (slot >= 0) {
            anchorWorld(bodies, slot, destM);
        }
        return destM;
    }

    /** Whether bodies {@code a} and {@code b} are a holder and the body it holds (either way round). */
    boolean joins(int a, int b) {
        for (int i = 0; i < count; i++) {
            if ((holder[i] == a && held[i] == b) || (holder[i] == b && held[i] == a)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Lets go of every hold on or by a body that is no longer dynamic (taken out of the simulation), then applies
     * each hold's force: on the held body into its force and torque accumulators, the opposite on a dynamic holder.
     * Wakes the held bodies. Before the velocity integration.
     */
    void apply(RigidBodies bodies, BodySleep sleep) {
        for (int i = count - 1; i >= 0; i--) {
            if (!bodies.dynamic[held[i]] || !bodies.dynamic[holder[i]] && bodies.type[holder[i]] == BodyType.DYNAMIC) {
                release(holder[i]);
            }
        }
        for (int i = 0; i < count; i++) {
            int body = held[i];
            int by = holder[i];
            anchorWorld(bodies, i, scratch);
            scratch.sub(bodies.positionM[body], leverArmM);
            bodies.angularVelocityRadps[body].cross(leverArmM, anchorVelocityMps).add(bodies.linearVelocityMps[body]);
            Vector3d f = forceN[i];
            bodies.positionM[by].sub(scratch, f).mul(stiffnessNpm[i]);
            bodies.linearVelocityMps[by].sub(anchorVelocityMps, scratch);
            f.fma(dampingNspm[i], scratch);
            leverArmM.cross(f, torqueNm[i]);
            bodies.forceN[body].add(f);
            bodies.torqueNm[body].add(torqueNm[i]);
            if (bodies.dynamic[by]) {
                bodies.forceN[by].sub(f);
                sleep.wake(by);
            }
            sleep.wake(body);
        }
    }

    /** Adds this step's hold forces to the contact report, after it has summed the contacts. */
    void report(ContactReport report) {
        for (int i = 0; i < count; i++) {
            report.addWrench(held[i], forceN[i], torqueNm[i]);
            scratch.set(forceN[i]).negate();
            report.addWrench(holder[i], scratch, noTorque);
        }
    }

    /**
     * The effective mass of a body at a point {@code leverArmM} from its centre of mass, along the direction where it
     * is least: {@code 1/m_a = 1/m + r²/I_min}, a lower bound over every direction and every point as far from the
     * centre, so a stability check on it holds wherever a hold is anchored within that distance.
     */
    static double anchorEffectiveMassKg(double massKg, double leastPrincipalInertiaKgM2, double leverArmM) {
        return 1.0 / (1.0 / massKg + leverArmM * leverArmM / leastPrincipalInertiaKgM2);
    }

    private void anchorWorld(RigidBodies bodies, int slot, Vector3d destM) {
        bodies.orientation[held[slot]].transform(anchorBodyM[slot], destM).add(bodies.positionM[held[slot]]);
    }

    private int slotOf(int holderBody) {
        for (int i = 0; i < count; i++) {
            if (holder[i] == holderBody) {
                return i;
            }
        }
        return -1;
    }
}
