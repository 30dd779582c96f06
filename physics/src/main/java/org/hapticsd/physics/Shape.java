package org.hapticsd.physics;

/**
 * The geometry of a body in its own frame: immutable data, no behaviour.
 *
 * <p>The algorithms that use a shape (bounding boxes, contact tests) live in the {@code geometry} and
 * {@code collision} packages and dispatch on the concrete type, as in dyn4j and Box2D, so that adding an
 * algorithm does not touch every shape. The interface is sealed so that the dispatch is complete: the next
 * issue adds capsules, convex hulls and meshes here and the compiler lists every place that must learn them.
 */
public sealed interface Shape
    permits SphereShape, PlaneShape, BoxShape, CapsuleShape, ConvexHullShape, TriangleMeshShape {
}
