package org.hapticsd.physics;

/**
 * A capsule: the points within {@code radiusM} of the segment from (0, 0, −halfLengthM) to (0, 0, +halfLengthM)
 * of the body frame, i.e. a cylinder along the body's z axis capped by two hemispheres.
 */
public record CapsuleShape(double radiusM, double halfLengthM) implements Shape {
    public CapsuleShape {
        if (!(radiusM > 0) || Double.isInfinite(radiusM)) {
            throw new IllegalArgumentException("radiusM must be finite and > 0, was " + radiusM);
        }
        if (!(halfLengthM >= 0) || Double.isInfinite(halfLengthM)) {
            throw new IllegalArgumentException("halfLengthM must be finite and >= 0, was " + halfLengthM);
        }
    }
}
