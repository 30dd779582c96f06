package org.hapticsd.physics;

import java.util.Arrays;
import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.physics.geometry.Aabb;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * How the world's rigid bodies and one deformable body push each other: each node is a sphere of the body's node
 * radius, tested against every rigid body whose bounds it overlaps with the world's narrowphase, and a penetration
 * {@code d} at normal speed {@code ḋ} gives the penalty force {@code F = max(0, k·d + b·ḋ)} along the contact
 * normal on the node and {@code −F} on the rigid body at the contact point (seams.md §B: coupling through an
 * apply-force call). Frictionless; a body whose own contact mode is NONE passes through. A node can also be held by a
 * body ({@link #hold}: the tool's grasp). Explicit in the step: the force is computed from the start-of-step state, so
 * {@code k·Δt² + 2·b·Δt < 4·m} must hold with {@code m} the lighter of the node and the body
 * ({@link #maxStableStiffnessNpm}). The grasp is also handed to the body ({@link DeformableBody#grasp}): one that splits
 * a step into substeps evaluates it again at each (a string's whip). Allocates only when built.
 */
final class DeformableCoupling {
    final DeformableBody body;
    final double stiffnessNpm;
    final double dampingNspm;
    private final SphereShape nodeShape;
    private final Transform nodePose = new Transform();
    private final Quaterniond identity = new Quaterniond();
    private final Vector3d nodeM = new Vector3d();
    private final Vector3d nodeVelocityMps = new Vector3d();
    private final Vector3d bodyVelocityMps = new Vector3d();
    private final Vector3d leverArmM = new Vector3d();
    private final Vector3d forceN = new Vector3d();
    private final Vector3d torqueNm = new Vector3d();
    private final double[] nodeBoundsM = new double[2 * Aabb.STRIDE];
    /** Per rigid body, this step's reaction of the nodes on it, for the contact report. */
    private Vector3d[] reactionN = new Vector3d[0];
    private Vector3d[] reactionTorqueNm = new Vector3d[0];
    private boolean[] touched = new boolean[0];
    int lastContacts;
    /** Taken out of the simulation: its state went non-finite ({@code PhysicsWorld}); no longer stepped or collided. */
    boolean lost;
    /** A node held by a rigid body (the tool) through a spring and damper; −1 when none. */
    private int heldNode = -1;
    private int holder = -1;
    private double holdStiffnessNpm;
    private double holdDampingNspm;
    private final Vector3d holderPointM = new Vector3d();

    DeformableCoupling(DeformableBody body, double stiffnessNpm, double dampingNspm) {
        this.body = body;
        this.stiffnessNpm = stiffnessNpm;
        this.dampingNspm = dampingNspm;
        this.nodeShape = new SphereShape(body.nodeRadiusM());
    }

    /** The stiffest coupling an explicit step of {@code dtS} keeps stable on mass {@code massKg}: k·Δt² + 2·b·Δt < 4·m. */
    static double maxStableStiffnessNpm(double massKg, double dampingNspm, double dtS) {
        return (4.0 * massKg - 2.0 * dampingNspm * dtS) / (dtS * dtS);
    }

    /** Room for this many rigid bodies; a scene operation. */
    void reserve(int bodyCount) {
        int old = reactionN.length;
        if (bodyCount <= old) {
            return;
        }
        reactionN = Arrays.copyOf(reactionN, bodyCount);
        reactionTorqueNm = Arrays.copyOf(reactionTorqueNm, bodyCount);
        touched = Arrays.copyOf(touched, bodyCount);
        for (int b = old; b < bodyCount; b++) {
            reactionN[b] = new Vector3d();
            reactionTorqueNm[b] = new Vector3d();
        }
    }

    /**
     * Finds the nodes' contacts with the rigid bodies and applies the forces: on the nodes through
     * {@link DeformableBody#applyNodeForce}, on dynamic bodies into their force and torque accumulators (used by the
     * velocity integration that follows), and on every body into {@link #reactionN} for the contact report.
     */
    void collide(RigidBodies bodies, Shape[] shapes, double[] boundsM, ShapePairTest narrowphase,
                 ContactManifold manifold, BodySleep sleep, ContactModeTable modes) {
        int rigid = bodies.count;
        for (int b = 0; b < rigid; b++) {
            if (touched[b]) {
                reactionN[b].zero();
                reactionTorqueNm[b].zero();
                touched[b] = false;
            }
        }
        int contacts = 0;
        double r = body.nodeRadiusM();
        for (int node = 0; node < body.nodeCount(); node++) {
            if (body.nodePinned(node)) {
                continue;
            }
            body.nodePosition(node, nodeM);
            Aabb.ofSphere(nodeM, r, nodeBoundsM, 0);
            nodePose.set(nodeM, identity);
            for (int b = 0; b < rigid; b++) {
                // A body set to touch nothing (contact mode NONE) passes through the nodes too, and a held node
                // hangs on its holder's grasp without also colliding with it.
                if (modes.bodyMode(b) == ContactMode.NONE || (node == heldNode && b == holder)) {
                    continue;
                }
                if (!overlap(nodeBoundsM, boundsM, b)
                        || !narrowphase.collide(nodeShape, nodePose, shapes[b], bodies.pose[b], manifold)) {
                    continue;
                }
                body.nodeVelocity(node, nodeVelocityMps);
                for (int p = 0; p < manifold.pointCount(); p++) {
                    double depthM = manifold.depth(p);
                    if (!(depthM > 0.0)) {
                        continue;
                    }
                    // The normal runs from the rigid body (B) toward the node (A). The body's velocity at the point,
                    // v + ω × r; the penetration grows at ḋ = −(v_node − v_body)·n.
                    leverArmM.set(manifold.point(p)).sub(bodies.positionM[b]);
                    bodies.angularVelocityRadps[b].cross(leverArmM, bodyVelocityMps).add(bodies.linearVelocityMps[b]);
                    double depthRateMps = -(nodeVelocityMps.x - bodyVelocityMps.x) * manifold.normal.x
                        - (nodeVelocityMps.y - bodyVelocityMps.y) * manifold.normal.y
                        - (nodeVelocityMps.z - bodyVelocityMps.z) * manifold.normal.z;
                    double magnitudeN = Math.max(0.0, stiffnessNpm * depthM + dampingNspm * depthRateMps);
                    if (magnitudeN == 0.0) {
                        continue;
                    }
                    contacts++;
                    forceN.set(manifold.normal).mul(magnitudeN);
                    body.applyNodeForce(node, forceN.x, forceN.y, forceN.z);
                    forceN.negate();
                    leverArmM.cross(forceN, torqueNm);
                    reactionN[b].add(forceN);
                    reactionTorqueNm[b].add(torqueNm);
                    touched[b] = true;
                    if (bodies.dynamic[b]) {
                        sleep.wake(b);
                        bodies.forceN[b].add(forceN);
                        bodies.torqueNm[b].add(torqueNm);
                    }
                }
            }
        }
        lastContacts = contacts;
        pull(bodies, sleep);
    }

    /**
     * Holds {@code node} to rigid body {@code body}'s centre (the tool's) with a spring {@code k} and damper {@code b}:
     * a grasp, Colgate's virtual coupling. {@code node} −1 lets go.
     */
    void hold(int node, int body, double stiffnessNpm, double dampingNspm) {
        heldNode = node;
        holder = body;
        holdStiffnessNpm = stiffnessNpm;
        holdDampingNspm = dampingNspm;
    }

    int heldNode() {
        return heldNode;
    }

    int holder() {
        return holder;
    }

    double holdStiffnessNpm() {
        return holdStiffnessNpm;
    }

    double holdDampingNspm() {
        return holdDampingNspm;
    }

    /** The grasp's force, F = k·(x_body − x_node) + b·(v_body − v_node) on the node and −F on the body. */
    void pull(RigidBodies bodies, BodySleep sleep) {
        if (heldNode < 0) {
            return;
        }
        body.nodePosition(heldNode, nodeM);
        body.nodeVelocity(heldNode, nodeVelocityMps);
        holderPointM.set(bodies.positionM[holder]);
        forceN.set(holderPointM).sub(nodeM).mul(holdStiffnessNpm);
        bodyVelocityMps.set(bodies.linearVelocityMps[holder]).sub(nodeVelocityMps).mul(holdDampingNspm);
        forceN.add(bodyVelocityMps);
        body.applyNodeForce(heldNode, forceN.x, forceN.y, forceN.z);
        Vector3d holderVelocity = bodies.linearVelocityMps[holder];
        body.grasp(heldNode, holderPointM.x, holderPointM.y, holderPointM.z, holderVelocity.x, holderVelocity.y,
            holderVelocity.z, holdStiffnessNpm, holdDampingNspm);
        forceN.negate();
        reactionN[holder].add(forceN);
        touched[holder] = true;
        if (bodies.dynamic[holder]) {
            sleep.wake(holder);
            bodies.forceN[holder].add(forceN);
        }
    }

    /** Adds this step's reactions to the contact report, after it has summed the rigid contacts. */
    void report(ContactReport report, int bodyCount) {
        for (int b = 0; b < bodyCount; b++) {
            if (touched[b]) {
                report.addWrench(b, reactionN[b], reactionTorqueNm[b]);
            }
        }
    }

    private static boolean overlap(double[] nodeBoundsM, double[] boundsM, int b) {
        int i = b * Aabb.STRIDE;
        return nodeBoundsM[0] <= boundsM[i + 3] && nodeBoundsM[3] >= boundsM[i]
            && nodeBoundsM[1] <= boundsM[i + 4] && nodeBoundsM[4] >= boundsM[i + 1]
            && nodeBoundsM[2] <= boundsM[i + 5] && nodeBoundsM[5] >= boundsM[i + 2];
    }
}
