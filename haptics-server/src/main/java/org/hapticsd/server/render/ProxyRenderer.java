package org.hapticsd.server.render;

import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.collision.SphereClearance;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Proxy rendering of the tool against the static and kinematic bodies: a god-object (Zilles and Salisbury, "A
 * constraint-based god-object method for haptic display", IROS 1995) with the sphere proxy of Ruspini, Kolarov and
 * Khatib (SIGGRAPH 1997), as CHAI3D's finger-proxy algorithm renders a tool. The mapped device position is the
 * proxy's goal; the proxy, a sphere of the tool's radius, moves toward it as far as the surfaces let it, never into
 * them; the hand feels the spring between the two.
 *
 * <p>Each tick ({@link #update}):
 * <ol>
 *   <li>From where it is, the proxy asks {@link SphereClearance} for the half-spaces of every surface within reach
 *       of the goal, and moves to the point nearest the goal that satisfies them ({@link NearestFeasiblePoint}).
 *       The half-spaces are exact on flat faces and conservative on curves, edges and corners, so it asks again
 *       from its new place, up to {@link #ITERATIONS} times a tick; on a curve it slides the rest of the way in the
 *       ticks that follow. A move never crosses a surface, however far the hand goes: a thin plate or a one-sided
 *       mesh wall stops the proxy where the tool's own contacts would let the sphere pass through once the hand is
 *       more than a radius past the surface.</li>
 *   <li>Friction, a cone on the proxy (Melder and Harwin's friction cone for the god-object): while touching, the
 *       proxy stays where it was when the goal lies inside the cone of half-angle {@code atan μ₀} about the contact
 *       normal; otherwise it moves toward the frictionless point just far enough to sit on the cone of
 *       {@code atan μ}, and it keeps {@code μ} until it sticks again. {@code μ₀} and {@code μ} are the mean of the
 *       tool's (zero) and the touched body's static and dynamic friction, the rule every contact of the scene uses.
 *       </li>
 *   <li>The force on the hand: {@code F = k·(x_p − x_g)}, plus the contact's damping {@code b} on the normal
 *       speed, the normal part kept from pulling ({@code k}, {@code b}: the scene's penalty spring). On a flat,
 *       frictionless surface this is exactly the penalty contact's {@code k·d + b·ḋ} for a hand {@code d} deep.</li>
 * </ol>
 *
 * <p>A proxy must start clear. Until the goal is clear of every surface (at the start, or after {@link #reset}), the
 * proxy follows the goal and renders nothing from the surfaces: a stylus that starts inside a body is not thrown out
 * of it with the whole depth's force, it leaves the body freely and is stopped from the next entry on.
 *
 * <p>Loop thread only; allocation-free after construction.
 */
public final class ProxyRenderer {

    /** The most constraint half-spaces one query keeps. */
    public static final int MAX_PLANES = 16;
    /** Re-linearisations per tick. */
    public static final int ITERATIONS = 4;
    /** A constraint counts as touched this close to its plane. */
    static final double TOUCH_M = 1e-9;
    /** The feasibility tolerance of a move, and the move below which the iteration has converged. */
    private static final double TOLERANCE_M = 1e-12;

    private final SphereClearance clearance;
    private final double radiusM;
    private final double stiffnessNpm;
    private final double dampingNspm;
    private final double[] staticFriction;
    private final double[] dynamicFriction;
    private final int obstacleCount;

    private boolean engaged;
    private boolean touching;
    private boolean sliding;
    private int touchedBody = -1;
    private boolean struck;
    private double strikeSpeedMps;
    private double depthM;

    private final Vector3d positionM = new Vector3d();
    private final Vector3d velocityMps = new Vector3d();
    private final Vector3d forceN = new Vector3d();
    private final Vector3d normal = new Vector3d();
    private final Vector3d previousM = new Vector3d();
    private final Vector3d frictionlessM = new Vector3d();
    private final Vector3d candidateM = new Vector3d();
    private final Vector3d shadedNormal = new Vector3d();
    private final Vector3d shadedGoalM = new Vector3d();
    private final boolean shading;
    private final Vector3d surfaceVelocityMps = new Vector3d();
    private final Vector3d contactPointM = new Vector3d();
    private final Vector3d bodyPositionM = new Vector3d();
    private final PhysicsWorld world;

    /**
     * @param obstacles   the static and kinematic bodies the proxy meets
     * @param toolMaterial the tool's surface, whose friction is averaged with each body's
     */
    public ProxyRenderer(PhysicsWorld world, int[] obstacles, double radiusM, double stiffnessNpm, double dampingNspm,
                         Material toolMaterial) {
        this(world, obstacles, radiusM, stiffnessNpm, dampingNspm, toolMaterial, Double.NaN);
    }

    /**
     * @param creaseAngleRad force shading on meshes with this crease angle ({@link SphereClearance}), or NaN for none
     */
    public ProxyRenderer(PhysicsWorld world, int[] obstacles, double radiusM, double stiffnessNpm, double dampingNspm,
                         Material toolMaterial, double creaseAngleRad) {
        if (!(radiusM > 0.0) || !(stiffnessNpm > 0.0) || !(dampingNspm >= 0.0)) {
            throw new IllegalArgumentException("proxy radius and stiffness must be > 0 and damping >= 0, got "
                + radiusM + " m, " + stiffnessNpm + " N/m, " + dampingNspm + " N·s/m");
        }
        this.world = world;
        this.clearance = new SphereClearance(world, obstacles, MAX_PLANES, creaseAngleRad);
        this.shading = !Double.isNaN(creaseAngleRad);
        this.radiusM = radiusM;
        this.stiffnessNpm = stiffnessNpm;
        this.dampingNspm = dampingNspm;
        this.obstacleCount = obstacles.length;
        staticFriction = new double[world.bodyCount()];
        dynamicFriction = new double[world.bodyCount()];
        for (int body : obstacles) {
            Material material = world.material(body);
            staticFriction[body] = 0.5 * (material.staticFriction() + toolMaterial.staticFriction());
            dynamicFriction[body] = 0.5 * (material.dynamicFriction() + toolMaterial.dynamicFriction());
        }
    }

    /**
     * One tick: moves the proxy toward {@code goalM} (the mapped device position, moving at {@code goalVelocityMps})
     * and computes the force on the hand, scene frame ({@link #forceN}).
     */
    public void update(Vector3dc goalM, Vector3dc goalVelocityMps, double dtS) {
        struck = false;
        previousM.set(positionM);
        if (!engaged) {
            positionM.set(goalM);
            velocityMps.set(goalVelocityMps);
            forceN.zero();
            touching = false;
            touchedBody = -1;
            clearance.query(goalM, radiusM, 0.0);
            engaged = clearOf(goalM);
            return;
        }
        boolean wasTouching = touching;
        Vector3d x = frictionlessM.set(positionM);
        moveToward(x, goalM);
        if (shading && touchedPiece(x) >= 0) {
            // Force shading (Ruspini, Kolarov and Khatib 1997, section 5): the goal projected on the plane through
            // the proxy normal to the surface's shaded normal there is a second goal; the proxy slides toward it
            // along the true surface, which tilts the force k·(x − goal) toward the shaded normal.
            clearance.shadedNormal(touchedPiece(x), shadedNormal);
            double alongM = shadedNormal.dot(x) - shadedNormal.dot(goalM);
            if (alongM > 0.0) {
                shadedGoalM.set(shadedNormal).mul(alongM).add(goalM);
                moveToward(x, shadedGoalM);
            }
        }
        depthM = x.distance(goalM);
        touchedBody = touchedBody(x);
        touching = depthM > 0.0 && touchedBody >= 0;
        if (!touching) {
            sliding = false;
            positionM.set(x);
        } else {
            normal.set(x).sub(goalM).div(depthM);
            positionM.set(x);
            if (wasTouching) {
                applyFriction(depthM);
            } else {
                struck = true;
                strikeSpeedMps = -normal.dot(goalVelocityMps);
            }
        }
        velocityMps.set(positionM).sub(previousM).div(dtS);
        if (!touching) {
            forceN.zero();
            return;
        }
        contactPointM.set(normal).mul(-radiusM).add(positionM);
        forceN.set(positionM).sub(goalM).mul(stiffnessNpm);
        double springNormalN = forceN.dot(normal);
        // ḋ as the contact has it: the surface's speed along the normal (a kinematic body's point velocity under
        // the proxy; a static one's zero) less the hand's. Not the proxy's own: it arrives from free space.
        surfaceVelocity(touchedBody, surfaceVelocityMps);
        double closingMps = surfaceVelocityMps.dot(normal) - goalVelocityMps.dot(normal);
        double normalN = Math.max(0.0, springNormalN + dampingNspm * closingMps);
        forceN.fma(normalN - springNormalN, normal);
    }

    /** The velocity of {@code body}'s point under the proxy (its surface point along −normal). */
    private void surfaceVelocity(int body, Vector3d destMps) {
        world.bodyAngularVelocity(body, destMps);
        world.bodyPosition(body, bodyPositionM);
        bodyPositionM.negate().add(contactPointM);
        destMps.cross(bodyPositionM);
        destMps.add(world.bodyLinearVelocity(body, bodyPositionM));
    }

    /**
     * Moves {@code x} toward {@code targetM} as far as the surfaces let it: up to {@link #ITERATIONS} queries, each
     * followed by the nearest feasible point of its half-spaces.
     */
    private void moveToward(Vector3d x, Vector3dc targetM) {
        double reachM = x.distance(targetM);
        for (int iteration = 0; iteration < ITERATIONS; iteration++) {
            clearance.query(x, radiusM, reachM);
            if (clearance.count() == 0) {
                candidateM.set(targetM);
            } else if (!NearestFeasiblePoint.solve(clearance, targetM.x(), targetM.y(), targetM.z(), TOLERANCE_M,
                    candidateM)) {
                return;
            }
            // The proxy may go only as far as the query vouches for: less than asked when a full query or a dense
            // mesh covered less, along the same segment (it stays within the half-spaces: they are convex and hold
            // both ends). A move longer than the reach asked is a push out of a body that came onto the proxy: ask
            // again with that reach.
            double movedM = candidateM.distance(x);
            double coveredM = clearance.coveredReachM();
            if (movedM > coveredM && coveredM >= reachM) {
                reachM = movedM;
                continue;
            }
            if (movedM > coveredM) {
                candidateM.sub(x).mul(coveredM / movedM).add(x);
                movedM = coveredM;
            }
            x.set(candidateM);
            if (movedM <= TOLERANCE_M || x.x == targetM.x() && x.y == targetM.y() && x.z == targetM.z()) {
                return;
            }
            reachM = x.distance(targetM);
        }
    }

    /**
     * The friction cone. The frictionless point {@code x*} is in {@link #positionM}, {@code d = |x* − goal|} deep
     * along {@link #normal}; the candidate is the segment from {@code x*} back to where the proxy was, on which the
     * tangential stretch grows linearly: {@code t·|s_t| ≤ μ·(d + t·s_n)} for {@code s = x_prev − x*}, closed form.
     */
    private void applyFriction(double normalDepthM) {
        double muStatic = staticFriction[touchedBody];
        double muDynamic = dynamicFriction[touchedBody];
        if (!(muStatic > 0.0) && !(muDynamic > 0.0)) {
            sliding = false;
            return;
        }
        Vector3d s = candidateM.set(previousM).sub(positionM);
        double sn = s.dot(normal);
        double st = Math.sqrt(Math.max(0.0, s.lengthSquared() - sn * sn));
        double feasibleT = feasibleFraction(positionM, s);
        double mu = sliding ? muDynamic : muStatic;
        if (coneFraction(mu, normalDepthM, sn, st) >= 1.0 && feasibleT >= 1.0) {
            positionM.add(s);
            sliding = false;
            return;
        }
        double t = Math.min(1.0, Math.min(feasibleT, coneFraction(muDynamic, normalDepthM, sn, st)));
        positionM.fma(t, s);
        sliding = true;
    }

    /** The largest {@code t} with {@code t·st ≤ μ·(d + t·sn)}; infinite when every {@code t ≥ 0} keeps it. */
    private static double coneFraction(double mu, double depthM, double sn, double st) {
        double denominator = st - mu * sn;
        return denominator > 0.0 ? mu * depthM / denominator : Double.POSITIVE_INFINITY;
    }

    /** The largest {@code t ≤ 1} for which {@code from + t·s} satisfies the last query's half-spaces. */
    private double feasibleFraction(Vector3dc fromM, Vector3dc s) {
        double t = 1.0;
        for (int i = 0; i < clearance.count(); i++) {
            double along = clearance.normalX(i) * s.x() + clearance.normalY(i) * s.y() + clearance.normalZ(i) * s.z();
            if (along >= 0.0) {
                continue;
            }
            double slackM = clearance.normalX(i) * fromM.x() + clearance.normalY(i) * fromM.y()
                + clearance.normalZ(i) * fromM.z() - clearance.offsetM(i);
            t = Math.min(t, Math.max(0.0, slackM) / -along);
        }
        return t;
    }

    /** The body of the half-space the proxy rests on (the least slack within {@link #TOUCH_M}), or −1. */
    private int touchedBody(Vector3dc xM) {
        int piece = touchedPiece(xM);
        return piece < 0 ? -1 : clearance.body(piece);
    }

    /** The half-space of the last query the proxy rests on (the least slack within {@link #TOUCH_M}), or −1. */
    private int touchedPiece(Vector3dc xM) {
        int best = -1;
        double bestSlackM = TOUCH_M;
        for (int i = 0; i < clearance.count(); i++) {
            double slackM = clearance.normalX(i) * xM.x() + clearance.normalY(i) * xM.y()
                + clearance.normalZ(i) * xM.z() - clearance.offsetM(i);
            if (slackM <= bestSlackM) {
                bestSlackM = slackM;
                best = i;
            }
        }
        return best;
    }

    private boolean clearOf(Vector3dc goalM) {
        for (int i = 0; i < clearance.count(); i++) {
            if (clearance.gapM(i) < 0.0) {
                return false;
            }
        }
        return true;
    }

    /** Lets go: until the goal is clear again the proxy follows it and renders nothing (a reset, a new scene). */
    public void reset() {
        engaged = false;
        touching = false;
        sliding = false;
        touchedBody = -1;
        struck = false;
        forceN.zero();
    }

    /** The proxy's centre, scene frame: where the tool is drawn and where its sphere meets the dynamic bodies. */
    public Vector3dc positionM() {
        return positionM;
    }

    /** The proxy's velocity over the last tick. */
    public Vector3dc velocityMps() {
        return velocityMps;
    }

    /** The force on the hand from the surfaces the proxy rests on, scene frame; zero when it touches none. */
    public Vector3dc forceN() {
        return forceN;
    }

    /** How far the goal is behind the surface the proxy rests on: the proxy–goal distance; 0 when not touching. */
    public double depthM() {
        return touching ? depthM : 0.0;
    }

    /** Whether the proxy rests on a surface. */
    public boolean touching() {
        return touching;
    }

    /** Whether the proxy is following the goal unconstrained until the goal is clear ({@link #reset}). */
    public boolean engaged() {
        return engaged;
    }

    /** The body the proxy rests on, or −1. */
    public int touchedBody() {
        return touchedBody;
    }

    /** Whether this tick's update brought the proxy onto a surface it was not on. */
    public boolean struck() {
        return struck;
    }

    /** The hand's speed into the surface at the strike of this tick. */
    public double strikeSpeedMps() {
        return strikeSpeedMps;
    }

    /** The surface point under the proxy, {@code x − r·n}, while it touches (its last value otherwise). */
    public Vector3dc contactPointM() {
        return contactPointM;
    }

    /** The unit normal of the surface the proxy rests on, from the goal toward the proxy. */
    public Vector3dc normal() {
        return normal;
    }

    public double radiusM() {
        return radiusM;
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    /** How many bodies the proxy meets. */
    public int obstacleCount() {
        return obstacleCount;
    }
}
