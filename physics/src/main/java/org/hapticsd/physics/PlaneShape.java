package org.hapticsd.physics;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A half-space: the plane passes through the body position with the given normal (in the body frame), and the
 * solid is on the side opposite the normal. A tool on the normal side is free; a tool behind the plane is pushed
 * back out along the normal however deep it is, which is what a wall or floor must do for a haptic tool that the
 * user can push through any thin surface.
 *
 * @param normal outward unit normal in the body frame; the constructor normalises a copy of the argument, so
 *     any finite non-zero vector is accepted and later changes to the argument do not reach the shape
 */
public record PlaneShape(Vector3dc normal) implements Shape {

    public PlaneShape {
        if (normal == null) {
            throw new IllegalArgumentException("normal must not be null");
        }
        double length = normal.length();
        if (!(length > 0.0) || !Double.isFinite(length)) {
            throw new IllegalArgumentException("normal must be finite and non-zero, was ("
                    + normal.x() + ", " + normal.y() + ", " + normal.z() + ")");
        }
        // Divide each component rather than multiply by 1/length: one rounding instead of two, so an axis-aligned
        // or Pythagorean normal such as (0, 3, 4) comes out as the nearest doubles to (0, 0.6, 0.8).
        normal = new Vector3d(normal.x() / length, normal.y() / length, normal.z() / length);
    }
}
