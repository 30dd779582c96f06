package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.collision.PairScenes.Scene;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The {@link ContactManifold} contract checked on sampled poses of every pair, in both orders, against signed
 * distances computed independently of the collision code ({@link SurfaceDistance}): each point lies on B's
 * surface, and {@code point − normal·depth} (A's deepest point there) lies on A's surface. Capsule contacts measure
 * depth from the ball around a core point, so at a clipped point inside the core their partner point may lie inside
 * the capsule (the depth is then an underestimate, never an overestimate): for a capsule, "on or inside".
 */
class ManifoldGeometryTest {
    /**
     * Decimetre-scale poses through a few rotations, cross products and one clip interpolation: rounding is a few
     * 1e-16 m (measured: at most 8e-16). 1e-9 m flags any real misplacement, which is millimetres.
     */
    private static final double ON_SURFACE_M = 1e-9;

    @Test
    void shouldPlaceEveryPointOnBAndItsPartnerOnA() {
        Narrowphase narrowphase = new Narrowphase();
        ContactManifold manifold = new ContactManifold();
        int points = 0;
        for (Scene s : PairScenes.touching(60, 0x9e0L)) {
            assertTrue(narrowphase.collide(s.a(), s.poseA(), s.b(), s.poseB(), manifold));
            points += check(s.a(), s.poseA(), s.b(), s.poseB(), manifold);
            assertTrue(narrowphase.collide(s.b(), s.poseB(), s.a(), s.poseA(), manifold));
            points += check(s.b(), s.poseB(), s.a(), s.poseA(), manifold);
        }
        assertTrue(points > 2 * 18 * 60, "sampled manifolds must include multi-point ones: " + points);
    }

    private static int check(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold m) {
        String what = a.getClass().getSimpleName() + " on " + b.getClass().getSimpleName() + " " + Contacts.describe(m);
        assertTrue(m.pointCount() >= 1 && m.pointCount() <= ContactManifold.MAX_POINTS, what);
        // A unit vector to the rounding of one normalisation.
        assertEquals(1.0, m.normal.length(), 1e-12, what);
        Vector3d partner = new Vector3d();
        for (int i = 0; i < m.pointCount(); i++) {
            assertTrue(m.depth(i) > 0.0, "margin 0: penetrating points only; " + what);
            assertNotEquals(0, m.featureId(i), "0 means no identity; " + what);
            for (int j = 0; j < i; j++) {
                assertNotEquals(m.featureId(j), m.featureId(i), "ids unique within a manifold; " + what);
            }
            Vector3d p = new Vector3d(m.point(i));
            assertOnSurface(b, poseB, p, what);
            partner.set(m.normal).mul(-m.depth(i)).add(p);
            assertOnSurface(a, poseA, partner, what);
        }
        return m.pointCount();
    }

    private static void assertOnSurface(Shape shape, Transform pose, Vector3d p, String what) {
        double distanceM = SurfaceDistance.of(shape, pose, p);
        if (shape instanceof CapsuleShape) {
            assertTrue(distanceM <= ON_SURFACE_M, "outside the capsule by " + distanceM + " m: " + what);
        } else {
            assertEquals(0.0, distanceM, ON_SURFACE_M, "off the surface of " + shape + ": " + what);
        }
    }
}
