package org.hapticsd.physics.collision;

import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * Contacts of capsules with spheres, capsules and planes. A capsule is the set of points within its radius of its
 * core segment, so each test reduces to closest points between cores (Ericson §5.1.9) and a sphere–sphere test on
 * them, except where a line of contact must become two points: two capsules lying side by side, or a capsule lying
 * on a plane, get a point at each end of the contact line so the solver can hold them against rolling about it.
 */
final class CapsuleContacts {
    /**
     * Two cores count as parallel when the sine of their angle is below this: 0.01 rad (0.57°). Within it the two
     * end points of the overlap carry their own exact depths, and the one shared normal is off from either point's
     * own normal by at most that angle.
     */
    static final double PARALLEL_SIN = 0.01;

    private final Vector3d a0 = new Vector3d();
    private final Vector3d a1 = new Vector3d();
    private final Vector3d b0 = new Vector3d();
    private final Vector3d b1 = new Vector3d();
    private final Vector3d closestA = new Vector3d();
    private final Vector3d closestB = new Vector3d();
    private final Vector3d pointM = new Vector3d();
    private final Vector3d normal = new Vector3d();

    /** Core segment end points of a posed capsule: body z = ∓ half length. */
    static void core(CapsuleShape capsule, Transform pose, Vector3d dest0, Vector3d dest1) {
        pose.toWorld(0.0, 0.0, -capsule.halfLengthM(), dest0);
        pose.toWorld(0.0, 0.0, capsule.halfLengthM(), dest1);
    }

    /** Sphere A against capsule B: the sphere against the ball at the core point closest to its centre. */
    boolean sphereCapsule(SphereShape a, Transform poseA, CapsuleShape b, Transform poseB, double marginM,
                          ContactManifold out) {
        core(b, poseB, b0, b1);
        double cx = poseA.position().x();
        double cy = poseA.position().y();
        double cz = poseA.position().z();
        double t = ClosestPoints.segmentParameter(b0.x, b0.y, b0.z, b1.x, b1.y, b1.z, cx, cy, cz);
        closestB.set(b0.x + (b1.x - b0.x) * t, b0.y + (b1.y - b0.y) * t, b0.z + (b1.z - b0.z) * t);
        double depthM = SphereContacts.sphereVsSphere(poseA.position(), a.radiusM(), closestB, b.radiusM(), pointM,
            normal);
        if (!(depthM > -marginM)) {
            return false;
        }
        out.normal.set(normal);
        out.addPoint(pointM, depthM, 1);
        return true;
    }

    /**
     * Capsule A against capsule B. Crossing cores touch at one point, the closest points of the cores, with normal
     * {@code (c_A − c_B)/|c_A − c_B|}. Parallel cores (within {@link #PARALLEL_SIN}) whose projections overlap
     * touch along a line: one point at each end of the overlap, each with its own depth measured along the shared
     * normal, which is the direction between the cores at the middle of the overlap.
     */
    boolean capsuleCapsule(CapsuleShape a, Transform poseA, CapsuleShape b, Transform poseB, double marginM,
                           ContactManifold out) {
        core(a, poseA, a0, a1);
        core(b, poseB, b0, b1);
        double radiiM = a.radiusM() + b.radiusM();
        double uAx = a1.x - a0.x;
        double uAy = a1.y - a0.y;
        double uAz = a1.z - a0.z;
        double uBx = b1.x - b0.x;
        double uBy = b1.y - b0.y;
        double uBz = b1.z - b0.z;
        double lengthASquared = uAx * uAx + uAy * uAy + uAz * uAz;
        double lengthBSquared = uBx * uBx + uBy * uBy + uBz * uBz;
        double crossX = uAy * uBz - uAz * uBy;
        double crossY = uAz * uBx - uAx * uBz;
        double crossZ = uAx * uBy - uAy * uBx;
        double crossSquared = crossX * crossX + crossY * crossY + crossZ * crossZ;
        boolean parallel = lengthASquared > 0.0 && lengthBSquared > 0.0
            && crossSquared <= PARALLEL_SIN * PARALLEL_SIN * lengthASquared * lengthBSquared;
        if (parallel && parallelOverlap(a, b, radiiM, lengthASquared, marginM, out)) {
            return true;
        }
        double distanceSquared = ClosestPoints.segmentSegment(a0.x, a0.y, a0.z, a1.x, a1.y, a1.z,
            b0.x, b0.y, b0.z, b1.x, b1.y, b1.z, closestA, closestB);
        double distanceM = Math.sqrt(distanceSquared);
        double depthM = radiiM - distanceM;
        if (!(depthM > -marginM)) {
            return false;
        }
        if (distanceM > 0.0) {
            normal.set(closestA).sub(closestB).div(distanceM);
        } else {
            crossingNormal(crossX, crossY, crossZ, crossSquared, poseA, poseB);
        }
        out.normal.set(normal);
        out.addPoint(closestB.x + normal.x * b.radiusM(), closestB.y + normal.y * b.radiusM(),
            closestB.z + normal.z * b.radiusM(), depthM, 5);
        return true;
    }

    /**
     * The overlap of parallel cores: B's ends projected on A's line bound an interval of A's parameter; where it
     * has length, its two ends are contact points (ids 1..4 say which core's end made each bound). Returns
     * {@code false} (for the single-point path) when the projections do not overlap or no end penetrates.
     */
    private boolean parallelOverlap(CapsuleShape a, CapsuleShape b, double radiiM, double lengthASquared,
                                    double marginM, ContactManifold out) {
        double uAx = a1.x - a0.x;
        double uAy = a1.y - a0.y;
        double uAz = a1.z - a0.z;
        double tB0 = ((b0.x - a0.x) * uAx + (b0.y - a0.y) * uAy + (b0.z - a0.z) * uAz) / lengthASquared;
        double tB1 = ((b1.x - a0.x) * uAx + (b1.y - a0.y) * uAy + (b1.z - a0.z) * uAz) / lengthASquared;
        double low = Math.min(tB0, tB1);
        double high = Math.max(tB0, tB1);
        // Which end bounds the overlap: A's own end (ids 1, 2) or one of B's (ids 3, 4).
        int lowId = low > 0.0 ? (tB0 <= tB1 ? 3 : 4) : 1;
        int highId = high < 1.0 ? (tB0 <= tB1 ? 4 : 3) : 2;
        low = Math.max(low, 0.0);
        high = Math.min(high, 1.0);
        if (!(high > low)) {
            return false;
        }
        // Shared normal: from B's core to A's core at the middle of the overlap.
        double middle = 0.5 * (low + high);
        pointOnA(middle, pointM);
        double t = ClosestPoints.segmentParameter(b0.x, b0.y, b0.z, b1.x, b1.y, b1.z, pointM.x, pointM.y, pointM.z);
        normal.set(pointM.x - (b0.x + (b1.x - b0.x) * t), pointM.y - (b0.y + (b1.y - b0.y) * t),
            pointM.z - (b0.z + (b1.z - b0.z) * t));
        double separationM = normal.length();
        if (separationM > 0.0) {
            normal.div(separationM);
        } else {
            // Coincident cores: any direction normal to them pushes them apart; take the one nearest world +z.
            perpendicularTo(uAx, uAy, uAz, normal);
        }
        int before = out.pointCount();
        for (int end = 0; end < 2; end++) {
            double s = end == 0 ? low : high;
            pointOnA(s, pointM);
            double tB = ClosestPoints.segmentParameter(b0.x, b0.y, b0.z, b1.x, b1.y, b1.z,
                pointM.x, pointM.y, pointM.z);
            double qx = b0.x + (b1.x - b0.x) * tB;
            double qy = b0.y + (b1.y - b0.y) * tB;
            double qz = b0.z + (b1.z - b0.z) * tB;
            double depthM = radiiM - (normal.x * (pointM.x - qx) + normal.y * (pointM.y - qy)
                + normal.z * (pointM.z - qz));
            if (depthM > -marginM) {
                out.addPoint(qx + normal.x * b.radiusM(), qy + normal.y * b.radiusM(), qz + normal.z * b.radiusM(),
                    depthM, end == 0 ? lowId : highId);
            }
        }
        if (out.pointCount() == before) {
            return false;
        }
        out.normal.set(normal);
        return true;
    }

    private void pointOnA(double s, Vector3d dest) {
        dest.set(a0.x + (a1.x - a0.x) * s, a0.y + (a1.y - a0.y) * s, a0.z + (a1.z - a0.z) * s);
    }

    /**
     * Normal for cores that intersect: the common perpendicular {@code u_A × u_B}, turned toward A's centre; for
     * parallel or point cores, the direction between the centres, or world +z when those coincide too.
     */
    private void crossingNormal(double crossX, double crossY, double crossZ, double crossSquared,
                                Transform poseA, Transform poseB) {
        double dx = poseA.position().x() - poseB.position().x();
        double dy = poseA.position().y() - poseB.position().y();
        double dz = poseA.position().z() - poseB.position().z();
        if (crossSquared > 0.0) {
            double sign = crossX * dx + crossY * dy + crossZ * dz >= 0.0 ? 1.0 : -1.0;
            double length = Math.sqrt(crossSquared);
            normal.set(sign * crossX / length, sign * crossY / length, sign * crossZ / length);
        } else if (dx != 0.0 || dy != 0.0 || dz != 0.0) {
            normal.set(dx, dy, dz).normalize();
        } else {
            normal.set(0.0, 0.0, 1.0);
        }
    }

    /**
     * A unit vector normal to u: the world axis least aligned with u, minus its part along u (scaled by |u|² to
     * avoid a division). Deterministic, and world +z for a horizontal u.
     */
    private static void perpendicularTo(double ux, double uy, double uz, Vector3d dest) {
        double ax = Math.abs(ux);
        double ay = Math.abs(uy);
        double az = Math.abs(uz);
        if (az <= ax && az <= ay) {
            // u lies near the xy plane: world z is normal to it up to the part along u.
            dest.set(-uz * ux, -uz * uy, ux * ux + uy * uy);
        } else if (ax <= ay) {
            dest.set(uy * uy + uz * uz, -ux * uy, -ux * uz);
        } else {
            dest.set(-uy * ux, ux * ux + uz * uz, -uy * uz);
        }
        dest.normalize();
    }

    /**
     * Capsule A against the half-space B: each end ball below the plane is a point (ids 1, 2), so a capsule lying
     * flat gets two; a zero-length capsule is a sphere and gets one.
     */
    boolean capsulePlane(CapsuleShape a, Transform poseA, Vector3d planeNormal, double planeOffsetM, double marginM,
                         ContactManifold out) {
        core(a, poseA, a0, a1);
        int ends = a.halfLengthM() > 0.0 ? 2 : 1;
        for (int end = 0; end < ends; end++) {
            Vector3d p = end == 0 ? a0 : a1;
            double heightM = planeNormal.dot(p) - planeOffsetM;
            double depthM = a.radiusM() - heightM;
            if (depthM > -marginM) {
                out.addPoint(p.x - planeNormal.x * heightM, p.y - planeNormal.y * heightM,
                    p.z - planeNormal.z * heightM, depthM, end + 1);
            }
        }
        if (out.pointCount() == 0) {
            return false;
        }
        out.normal.set(planeNormal);
        return true;
    }
}
