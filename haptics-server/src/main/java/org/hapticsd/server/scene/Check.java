package org.hapticsd.server.scene;

/**
 * Field checks used by the scene model's setters. Jackson calls a setter with the parser on the value, so an
 * exception thrown here is reported with the line, column and field path of the offending value.
 */
final class Check {
    private Check() {
    }

    static double positive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be > 0 and finite, got " + value);
        }
        return value;
    }

    static double nonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be >= 0 and finite, got " + value);
        }
        return value;
    }

    static int atLeast(String field, int min, int value) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    static double finite(String field, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(field + " must be a finite number, got " + value);
        }
        return value;
    }

    /**
     * The largest magnitude of a vector's component (a position, velocity or acceleration): a tester's
     * {@code device.initialPosition: [1e308, 0, 0]} loaded, then every tick failed on the infinite tool position it
     * mapped to. A million metres (or m/s, rad/s, m/s²) is far beyond any scene and keeps the products finite.
     */
    static final double MAX_VECTOR_COMPONENT = 1e6;

    /**
     * A size (a radius, a length, a scale factor): > 0 and at most {@link #MAX_VECTOR_COMPONENT}. A tester's
     * {@code tool.radiusM: 1e308} and {@code mapping.scale: 1e300} loaded, and the first tick's force overflowed to
     * infinity, so the run latched SAFE (NON_FINITE_FORCE) before it began.
     */
    static double size(String field, double value) {
        positive(field, value);
        if (value > MAX_VECTOR_COMPONENT) {
            throw new IllegalArgumentException(field + " must be <= 1e6, got " + value);
        }
        return value;
    }

    /** A 3-vector of finite numbers within ±{@link #MAX_VECTOR_COMPONENT}; returns a copy. */
    static double[] vector3(String field, double[] value) {
        if (value == null || value.length != 3) {
            throw new IllegalArgumentException(
                field + " must be a list of 3 numbers [x, y, z], got " + (value == null ? "null" : value.length));
        }
        for (int i = 0; i < 3; i++) {
            finite(field + "[" + i + "]", value[i]);
            if (Math.abs(value[i]) > MAX_VECTOR_COMPONENT) {
                throw new IllegalArgumentException(field + "[" + i + "] must be within ±1e6, got " + value[i]);
            }
        }
        return value.clone();
    }

    /** A non-zero 3-vector, returned normalised. */
    static double[] direction(String field, double[] value) {
        double[] v = vector3(field, value);
        double length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(length > 1e-12)) {
            throw new IllegalArgumentException(field + " must not be the zero vector");
        }
        return new double[] {v[0] / length, v[1] / length, v[2] / length};
    }

    /** A quaternion [w, x, y, z] of non-zero length, returned normalised. */
    static double[] quaternion(String field, double[] value) {
        if (value == null || value.length != 4) {
            throw new IllegalArgumentException(field + " must be a list of 4 numbers [w, x, y, z], got "
                + (value == null ? "null" : value.length));
        }
        double largest = 0;
        for (int i = 0; i < 4; i++) {
            finite(field + "[" + i + "]", value[i]);
            largest = Math.max(largest, Math.abs(value[i]));
        }
        // Scaled by the largest component first: [1e200, 1e200, 0, 0] squared is infinite, and dividing by an
        // infinite norm gave the zero quaternion, which made every tick fail (a tester).
        double norm = 0;
        for (int i = 0; i < 4 && largest > 0; i++) {
            double scaled = value[i] / largest;
            norm += scaled * scaled;
        }
        norm = largest * Math.sqrt(norm);
        if (!(norm > 1e-12)) {
            throw new IllegalArgumentException(field + " must not be the zero quaternion");
        }
        return new double[] {value[0] / norm, value[1] / norm, value[2] / norm, value[3] / norm};
    }
}
