package org.hapticsd.physics;

/**
 * A solid ball centred on the body position.
 *
 * @param radiusM radius, finite and {@code > 0}
 */
public record SphereShape(double radiusM) implements Shape {

    public SphereShape {
        if (!(radiusM > 0.0) || !Double.isFinite(radiusM)) {
            throw new IllegalArgumentException("radiusM must be finite and > 0, was " + radiusM);
        }
    }
}
