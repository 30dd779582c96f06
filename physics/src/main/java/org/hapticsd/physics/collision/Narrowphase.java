package org.hapticsd.physics.collision;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * Exact contact between two posed shapes, written as a {@link ContactManifold}. One instance per world: it owns
 * the scratch vectors, so {@link #collide} allocates nothing.
 *
 * <p>Dispatch: each supported pair has one routine written for a canonical order; the reversed order calls it with
 * the shapes swapped and {@link ContactManifold#flip() flips} the result, so every routine is written once.
 */
public final class Narrowphase {
    /** Points up to this far apart are reported (with negative depth) so the solver can stop them meeting. */
    public static final double DEFAULT_MARGIN_M = 0.0;

    private final Vector3d pointM = new Vector3d();
    private final Vector3d normal = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d axis = new Vector3d();

    /**
     * Tests shape {@code a} at {@code poseA} against {@code b} at {@code poseB}.
     *
     * @return {@code true} when the manifold holds at least one point
     * @throws IllegalArgumentException for a pair this engine does not test (e.g. plane–plane)
     */
    public boolean collide(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        out.clear();
        if (order(a) > order(b)) {
            boolean hit = collideOrdered(b, poseB, a, poseA, out);
            if (hit) {
                out.flip();
            }
            return hit;
        }
        return collideOrdered(a, poseA, b, poseB, out);
    }

    /** Canonical order of shapes in a pair: the routine for (x, y) exists for order(x) <= order(y). */
    private static int order(Shape shape) {
        if (shape instanceof SphereShape) {
            return 0;
        }
        if (shape instanceof BoxShape) {
            return 2;
        }
        if (shape instanceof PlaneShape) {
            return 9;
        }
        return 5;
    }

    private boolean collideOrdered(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        if (a instanceof SphereShape sphere) {
            if (b instanceof SphereShape other) {
                return sphereSphere(sphere, poseA, other, poseB, out);
            }
            if (b instanceof PlaneShape plane) {
                return spherePlane(sphere, poseA, plane, poseB, out);
            }
            if (b instanceof BoxShape box) {
                return sphereBox(sphere, poseA, box, poseB, out);
            }
        }
        if (a instanceof BoxShape box && b instanceof PlaneShape plane) {
            return boxPlane(box, poseA, plane, poseB, out);
        }
        throw new IllegalArgumentException("no contact test for " + a.getClass().getSimpleName() + " against "
            + b.getClass().getSimpleName());
    }

    private boolean sphereSphere(SphereShape a, Transform poseA, SphereShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsSphere(poseA.position(), a.radiusM(), poseB.position(), b.radiusM(),
            pointM, normal);
        return single(depth, out, 1);
    }

    private boolean spherePlane(SphereShape a, Transform poseA, PlaneShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsPlane(poseA.position(), a.radiusM(), poseB.position(),
            poseB.rotation(), b.normal(), pointM, normal);
        return single(depth, out, 1);
    }

    private boolean sphereBox(SphereShape a, Transform poseA, BoxShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsBox(poseA.position(), a.radiusM(), poseB.position(), poseB.rotation(),
            b.halfXM(), b.halfYM(), b.halfZM(), pointM, normal);
        return single(depth, out, 1);
    }

    private boolean single(double depthM, ContactManifold out, int featureId) {
        if (!(depthM > -DEFAULT_MARGIN_M) || depthM == 0.0) {
            return false;
        }
        out.normal.set(normal);
        out.addPoint(pointM, depthM, featureId);
        return true;
    }

    /**
     * Box against a half-space: every box vertex below the plane is a contact point (its projection on the plane),
     * so a box resting flat gets the four corners of its face, the intersection polygon of Springhead's model.
     * The feature id is the vertex index + 1, stable while the box rests.
     */
    private boolean boxPlane(BoxShape a, Transform poseA, PlaneShape b, Transform poseB, ContactManifold out) {
        poseB.rotate(b.normal(), axis);
        double planeOffsetM = axis.dot(poseB.position());
        for (int i = 0; i < 8; i++) {
            double x = (i & 1) == 0 ? -a.halfXM() : a.halfXM();
            double y = (i & 2) == 0 ? -a.halfYM() : a.halfYM();
            double z = (i & 4) == 0 ? -a.halfZM() : a.halfZM();
            poseA.toWorld(x, y, z, scratch);
            double depthM = planeOffsetM - axis.dot(scratch);
            if (depthM > -DEFAULT_MARGIN_M && depthM != 0.0) {
                out.addPoint(scratch.x + axis.x * depthM, scratch.y + axis.y * depthM, scratch.z + axis.z * depthM,
                    depthM, i + 1);
            }
        }
        if (out.pointCount() == 0) {
            return false;
        }
        out.normal.set(axis);
        return true;
    }
}
