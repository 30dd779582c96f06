package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.hapticsd.physics.geometry.Transform;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/** Poses, manifold copies and order-free manifold comparisons shared by the collision tests. */
final class Contacts {

    /**
     * Positions, depths and normals of the analytic cases: centimetre-to-decimetre inputs through one rotation
     * matrix (about 20 roundings of values below 1), a few cross products, a normalisation and a clip
     * interpolation, so the error is a few 1e-16 m; 1e-12 leaves three orders of margin and is still a million
     * times finer than a haptic device resolves.
     */
    static final double LENGTH_M = 1e-12;

    /** Unit normals: the same reasoning on dimensionless components of size at most 1. */
    static final double DIRECTION = 1e-12;

    private Contacts() {
    }

    static Transform pose(double x, double y, double z) {
        return new Transform().set(new Vector3d(x, y, z), new Quaterniond());
    }

    /** Rotation by {@code angle} about the axis (ax, ay, az) (rotationAxis: Quaterniond.rotationX is avoided). */
    static Transform pose(double x, double y, double z, double angle, double ax, double ay, double az) {
        return new Transform().set(new Vector3d(x, y, z), new Quaterniond().rotationAxis(angle, ax, ay, az));
    }

    static Transform pose(Vector3dc positionM, Quaterniond rotation) {
        return new Transform().set(positionM, rotation);
    }

    /** {@code pose} moved by the rigid motion x ↦ R·x + t applied to the whole scene. */
    static Transform moved(Transform pose, Quaterniond r, Vector3dc t) {
        Vector3d p = r.transform(new Vector3d(pose.position())).add(t);
        Quaterniond q = new Quaterniond(r).mul(pose.rotation());
        return new Transform().set(p, q);
    }

    static ContactManifold copy(ContactManifold m) {
        ContactManifold c = new ContactManifold();
        c.normal.set(m.normal);
        for (int i = 0; i < m.pointCount(); i++) {
            c.addPoint(m.point(i), m.depth(i), m.featureId(i));
        }
        return c;
    }

    /** The manifold moved by the rigid motion: points rotated and translated, normal rotated. */
    static ContactManifold moved(ContactManifold m, Quaterniond r, Vector3dc t) {
        ContactManifold c = new ContactManifold();
        r.transform(new Vector3d(m.normal), c.normal);
        for (int i = 0; i < m.pointCount(); i++) {
            c.addPoint(r.transform(new Vector3d(m.point(i))).add(t), m.depth(i), m.featureId(i));
        }
        return c;
    }

    /** Index of the point within {@code toleranceM} of (x, y, z), failing if none. */
    static int pointNear(ContactManifold m, double x, double y, double z, double toleranceM) {
        for (int i = 0; i < m.pointCount(); i++) {
            if (m.point(i).distance(x, y, z) <= toleranceM) {
                return i;
            }
        }
        fail("no point within " + toleranceM + " m of (" + x + ", " + y + ", " + z + ") in " + describe(m));
        return -1;
    }

    static void assertNormal(ContactManifold m, double nx, double ny, double nz, double tolerance) {
        assertEquals(nx, m.normal.x, tolerance, "normal x of " + describe(m));
        assertEquals(ny, m.normal.y, tolerance, "normal y of " + describe(m));
        assertEquals(nz, m.normal.z, tolerance, "normal z of " + describe(m));
    }

    /** Asserts a point at (x, y, z) with the given depth. */
    static void assertPoint(ContactManifold m, double x, double y, double z, double depthM, double toleranceM) {
        int i = pointNear(m, x, y, z, toleranceM);
        assertEquals(depthM, m.depth(i), toleranceM, "depth at (" + x + ", " + y + ", " + z + ") in " + describe(m));
    }

    /**
     * Same normal and the same points with the same depths, in any order, within {@code toleranceM}; feature ids
     * are compared when {@code ids}.
     */
    static void assertSameContact(ContactManifold expected, ContactManifold actual, double toleranceM, boolean ids) {
        assertEquals(expected.pointCount(), actual.pointCount(),
            "point count: expected " + describe(expected) + " got " + describe(actual));
        assertTrue(expected.normal.distance(actual.normal) <= toleranceM,
            "normal: expected " + describe(expected) + " got " + describe(actual));
        boolean[] used = new boolean[actual.pointCount()];
        for (int i = 0; i < expected.pointCount(); i++) {
            int match = -1;
            for (int j = 0; j < actual.pointCount() && match < 0; j++) {
                if (!used[j] && expected.point(i).distance(actual.point(j)) <= toleranceM
                    && Math.abs(expected.depth(i) - actual.depth(j)) <= toleranceM
                    && (!ids || expected.featureId(i) == actual.featureId(j))) {
                    match = j;
                }
            }
            assertTrue(match >= 0, "point " + i + " of " + describe(expected) + " missing from " + describe(actual));
            used[match] = true;
        }
    }

    static String describe(ContactManifold m) {
        StringBuilder s = new StringBuilder("{n=").append(m.normal).append(" points=[");
        for (int i = 0; i < m.pointCount(); i++) {
            s.append(' ').append(m.point(i)).append(" d=").append(m.depth(i))
                .append(" id=").append(Integer.toHexString(m.featureId(i)));
        }
        return s.append(" ]}").toString();
    }
}
