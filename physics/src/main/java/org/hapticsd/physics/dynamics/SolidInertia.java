package org.hapticsd.physics.dynamics;

import org.joml.Matrix3d;

/**
 * Inertia tensors of uniform solids about their centre, in their own frame: the two closed forms every textbook
 * lists. Shapes with no closed form (hulls, capsules, meshes) come from the mass-properties calculator.
 */
public final class SolidInertia {

    private SolidInertia() {
    }

    /** A uniform ball: {@code (2/5)·m·r²} about every axis. */
    public static Matrix3d sphere(double massKg, double radiusM, Matrix3d dest) {
        double moment = 0.4 * massKg * radiusM * radiusM;
        return dest.zero().m00(moment).m11(moment).m22(moment);
    }

    /**
     * A uniform box of half extents {@code h}: {@code (m/3)·(h_y² + h_z²)} about x and likewise (the full-edge form
     * {@code (m/12)·(b² + c²)} with {@code b = 2·h_y}, {@code c = 2·h_z}).
     */
    public static Matrix3d box(double massKg, double halfXM, double halfYM, double halfZM, Matrix3d dest) {
        double x2 = halfXM * halfXM;
        double y2 = halfYM * halfYM;
        double z2 = halfZM * halfZM;
        double third = massKg / 3.0;
        return dest.zero().m00(third * (y2 + z2)).m11(third * (x2 + z2)).m22(third * (x2 + y2));
    }
}
