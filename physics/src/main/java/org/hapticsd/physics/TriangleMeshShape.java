package org.hapticsd.physics;

import org.hapticsd.physics.geometry.TriangleMesh;

/** A triangle mesh in the body frame; only static bodies may use it (it has no volume to give mass). */
public record TriangleMeshShape(TriangleMesh mesh) implements Shape {
    public TriangleMeshShape {
        if (mesh == null) {
            throw new IllegalArgumentException("mesh must not be null");
        }
    }
}
