package org.hapticsd.physics;

import org.hapticsd.physics.geometry.ConvexHull;

/** A convex polyhedron in the body frame. */
public record ConvexHullShape(ConvexHull hull) implements Shape {
    public ConvexHullShape {
        if (hull == null) {
            throw new IllegalArgumentException("hull must not be null");
        }
    }
}
