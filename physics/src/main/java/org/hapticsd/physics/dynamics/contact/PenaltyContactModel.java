package org.hapticsd.physics.dynamics.contact;

import java.util.Arrays;

import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.StepContext;
import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.joml.Vector3d;

/**
 * {@link ContactMode#PENALTY} contacts: each point's force is a function of the state at the start of the step
 * ({@link PenaltyContactLaw}), computed once in {@code PREPARE_CONTACTS} and added to the external force of the
 * dynamic bodies it touches, which the integrator applies with gravity (source 003's penalty method: "force from
 * penetration; simple, no guarantee of accuracy or stability"). Kinematic and static bodies only report it: the
 * force on a haptic tool is the force to render.
 *
 * <h2>The law</h2>
 * Normal {@code f_n = max(0, k·d + b·ḋ)}; friction a tangential spring–damper of the same {@code k} and {@code b}
 * anchored at the stick point, bounded by {@code μ0·f_n} while the sliding speed is at most {@code V_f} and by
 * {@code μ·f_n} above it (Springhead's static/dynamic switch, seed 002, with the means of the two materials). The
 * force acts at the midpoint between the surfaces, so it also turns the bodies.
 *
 * <h2>Stable range at 1 kHz</h2>
 * <ol>
 *   <li><b>Integration.</b> Semi-implicit Euler on {@code m·ẍ = −k·x − b·ẋ} has the amplification matrix
 *       {@code [[1 − α, Δt(1 − β)], [−α/Δt, 1 − β]]} with {@code α = k·Δt²/m}, {@code β = b·Δt/m}: trace
 *       {@code 2 − α − β}, determinant {@code 1 − β}. Jury's conditions give {@code α + 2β < 4}, i.e.
 *       {@code k·Δt² + 2·b·Δt < 4·m}; without damping the familiar {@code k < 4·m/Δt²}
 *       ({@link PenaltyContactSettings#maxStableStiffnessNpm}). Here {@code m} is the mass the springs of one mode
 *       move — for a point at lever arm r, the effective mass {@code 1/(1/m + (r × n)·I⁻¹·(r × n))}, and for a box
 *       on four corner springs the heave mode carries {@code 4k} — so keep {@code Σk} well below
 *       {@code 4·m_eff/Δt²}: at 1 kHz a 0.1 kg body allows {@code 4e5 N/m} in total, a 1 kg body
 *       {@code 4e6 N/m}. The tangential spring shares {@code k} and obeys the same bound.</li>
 *   <li><b>Haptic passivity.</b> The force on a tool is rendered by a device sampled every {@code T}: passive only
 *       while the device's own damping exceeds {@code k·T/2 + b} (Colgate and Schenkel 1997, see
 *       {@link PenaltyContactSettings}), so {@code k < 2·b_device/T}: about 2000 N/m per N·s/m of device damping
 *       at 1 kHz. This bound, not the first, limits walls felt through the tool.</li>
 * </ol>
 */
public final class PenaltyContactModel implements ContactModel {

    private final Vector3d relativeVelocityMps = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d forceN = new Vector3d();

    /** This step's points, in order, for {@link #store}. */
    private PointIndices points;
    /** Per point slot of this step: the stick displacement, updated by the law in place. */
    private Vector3d[] stickM = new Vector3d[0];
    /** What the last step's points left, by the last step's slot (x, y, z per slot), and the same for this step. */
    private double[] carriedStickM = new double[0];
    private double[] nextStickM = new double[0];

    @Override
    public ContactMode mode() {
        return ContactMode.PENALTY;
    }

    /**
     * By feature id only: a tool's stick point is where its id touched, and a renamed point starting a fresh stick
     * keeps the friction a tool renders what it always was.
     */
    @Override
    public double matchRadiusM() {
        return 0.0;
    }

    @Override
    public void reserve(int capacity, int bodies) {
        if (capacity > stickM.length) {
            int old = stickM.length;
            stickM = Arrays.copyOf(stickM, capacity);
            for (int i = old; i < capacity; i++) {
                stickM[i] = new Vector3d();
            }
            carriedStickM = Arrays.copyOf(carriedStickM, 3 * capacity);
            nextStickM = Arrays.copyOf(nextStickM, 3 * capacity);
        }
    }

    @Override
    public void prepare(StepContext context, RigidBodies bodies, ContactPoints contacts, PointIndices mine,
                        int[] previous) {
        this.points = mine;
        ContactSettings settings = context.settings();
        double stiffnessNpm = settings.penalty().stiffnessNpm();
        double dampingNspm = settings.penalty().dampingNspm();
        double frictionThresholdMps = settings.frictionThresholdMps();
        double dt = context.dtS();
        for (int k = 0; k < mine.count(); k++) {
            int i = mine.get(k);
            int last = previous[i];
            Vector3d stick = stickM[i];
            if (last >= 0) {
                stick.set(carriedStickM[3 * last], carriedStickM[3 * last + 1], carriedStickM[3 * last + 2]);
            } else {
                stick.zero();
            }
            int a = contacts.bodyA[i];
            int bodyB = contacts.bodyB[i];
            Vector3d n = contacts.normal[i];
            Vector3d rA = contacts.leverArmAM[i];
            Vector3d rB = contacts.leverArmBM[i];

            // (v_A + ω_A × r_A) − (v_B + ω_B × r_B): the point velocities, as source 003's v_c = ω × r + v_G.
            bodies.angularVelocityRadps[a].cross(rA, relativeVelocityMps).add(bodies.linearVelocityMps[a]);
            bodies.angularVelocityRadps[bodyB].cross(rB, scratch).add(bodies.linearVelocityMps[bodyB]);
            relativeVelocityMps.sub(scratch);
            // Summed left to right, as PenaltyContactLaw.penetrationRateMps does: JOML's dot associates the other
            // way, and the force a tool renders must keep its exact bits from one release to the next.
            Vector3d v = relativeVelocityMps;
            double vn = v.x * n.x + v.y * n.y + v.z * n.z;
            double depthRateMps = -vn;
            contacts.normalSpeedMps[i] = depthRateMps;
            double normalN = PenaltyContactLaw.normalForceN(stiffnessNpm, dampingNspm, contacts.depthM[i], depthRateMps);
            contacts.normalForceN[i] = normalN;

            Vector3d slidingVelocityMps = relativeVelocityMps.fma(-vn, n);
            double mu = slidingVelocityMps.length() <= frictionThresholdMps
                    ? contacts.staticFriction[i] : contacts.dynamicFriction[i];
            PenaltyContactLaw.stickSlipFrictionN(stiffnessNpm, dampingNspm, dt, mu * normalN, n, slidingVelocityMps,
                    stick, contacts.frictionForceN[i]);

            forceN.set(n).mul(normalN).add(contacts.frictionForceN[i]);
            if (bodies.dynamic[a]) {
                bodies.forceN[a].add(forceN);
                bodies.torqueNm[a].add(rA.cross(forceN, scratch));
            }
            if (bodies.dynamic[bodyB]) {
                bodies.forceN[bodyB].sub(forceN);
                bodies.torqueNm[bodyB].sub(rB.cross(forceN, scratch));
            }
        }
    }

    @Override
    public void store(StepContext context, ContactPoints contacts) {
        // normalForceN and frictionForceN were written in prepare; the stick points go to the next step.
        for (int k = 0; k < points.count(); k++) {
            int i = points.get(k);
            Vector3d stick = stickM[i];
            nextStickM[3 * i] = stick.x;
            nextStickM[3 * i + 1] = stick.y;
            nextStickM[3 * i + 2] = stick.z;
        }
        double[] carried = carriedStickM;
        carriedStickM = nextStickM;
        nextStickM = carried;
    }
}
