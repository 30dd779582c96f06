package org.hapticsd.physics;

/**
 * A solid box centred on the body position, its edges along the body axes; the body orientation turns it in
 * the world (an oriented box).
 *
 * @param halfXM half the edge length along the body x axis, finite and {@code > 0}
 * @param halfYM half the edge length along the body y axis, finite and {@code > 0}
 * @param halfZM half the edge length along the body z axis, finite and {@code > 0}
 */
public record BoxShape(double halfXM, double halfYM, double halfZM) implements Shape {

    public BoxShape {
        requirePositive("halfXM", halfXM);
        requirePositive("halfYM", halfYM);
        requirePositive("halfZM", halfZM);
    }

    private static void requirePositive(String field, double valueM) {
        if (!(valueM > 0.0) || !Double.isFinite(valueM)) {
            throw new IllegalArgumentException(field + " must be finite and > 0, was " + valueM);
        }
    }
}
