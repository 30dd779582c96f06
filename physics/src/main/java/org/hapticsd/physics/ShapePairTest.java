package org.hapticsd.physics;

import org.hapticsd.physics.collision.ContactManifold;
import org.hapticsd.physics.geometry.Transform;

/**
 * The narrowphase as the world uses it: {@code collision.Narrowphase#collide}'s signature, so that the world
 * programs against exactly that contract. Package-private seam: tests substitute a routine for a shape pair the
 * narrowphase does not cover yet.
 */
@FunctionalInterface
interface ShapePairTest {

    /** Fills {@code out} (normal from B toward A, points on B, depth {@code > 0} penetrating); true when hit. */
    boolean collide(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out);

    /** Called once per body as it is added, so per-shape data (hull adjacency, mesh hierarchy) is never built
     *  during a step. */
    default void prepare(Shape shape) {
    }
}
