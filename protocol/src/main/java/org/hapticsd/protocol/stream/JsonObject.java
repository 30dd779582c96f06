package org.hapticsd.protocol.stream;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;

/**
 * Typed, strict reads from one JSON object of a message. Each read names the field by its path
 * ({@code bodies[2].shape.radiusM}); {@link #finish()} rejects fields no read asked for, so a misspelt key in a
 * client's COMMAND is refused rather than silently ignored.
 */
final class JsonObject {
    private static final BigInteger U63_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final JsonNode node;
    private final String path;
    private final Set<String> read = new HashSet<>();

    JsonObject(JsonNode node, String path) {
        if (node == null || !node.isObject()) {
            throw new StreamFormatException(label(path) + " must be a JSON object");
        }
        this.node = node;
        this.path = path;
    }

    private static String label(String path) {
        return path.isEmpty() ? "message" : path;
    }

    private String at(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    JsonNode get(String field) {
        read.add(field);
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            throw new StreamFormatException(at(field) + " is missing");
        }
        return v;
    }

    JsonObject object(String field) {
        return new JsonObject(get(field), at(field));
    }

    String string(String field) {
        JsonNode v = get(field);
        if (!v.isTextual()) {
            throw new StreamFormatException(at(field) + " must be a string");
        }
        return v.textValue();
    }

    boolean bool(String field) {
        JsonNode v = get(field);
        if (!v.isBoolean()) {
            throw new StreamFormatException(at(field) + " must be true or false");
        }
        return v.booleanValue();
    }

    long integer(String field, long max) {
        return integer(get(field), at(field), max);
    }

    static long integer(JsonNode v, String label, long max) {
        if (!v.isIntegralNumber()) {
            throw new StreamFormatException(label + " must be a whole number");
        }
        BigInteger b = v.bigIntegerValue();
        if (b.signum() < 0 || b.compareTo(U63_MAX) > 0 || b.longValue() > max) {
            throw new StreamFormatException(label + " must be 0.." + max + ", was " + b);
        }
        return b.longValue();
    }

    float f32(String field) {
        return f32(get(field), at(field));
    }

    double f64(String field) {
        JsonNode v = get(field);
        double d = nonFinite(v, at(field));
        if (Double.isNaN(d) && v.isNumber()) {
            d = Double.parseDouble(v.asText());
            if (Double.isInfinite(d)) {
                throw new StreamFormatException(at(field) + " = " + v.asText() + " is beyond float64");
            }
        }
        return d;
    }

    /**
     * A float32 from a JSON number, or from the strings "NaN", "Infinity", "-Infinity" (JSON has no literal for
     * them, and a STATE may carry a non-finite force: it is exactly what the NON_FINITE_FORCE fault reports). The
     * number's decimal text is rounded once, straight to float32, so the shortest text of a float reads back to the
     * same float.
     */
    static float f32(JsonNode v, String label) {
        double special = nonFinite(v, label);
        if (!Double.isNaN(special) || !v.isNumber()) {
            return (float) special;
        }
        float f = Float.parseFloat(v.asText());
        if (Float.isInfinite(f)) {
            throw new StreamFormatException(label + " = " + v.asText() + " is beyond float32");
        }
        return f;
    }

    /** The value of a non-finite string, NaN for a number (read by the caller), or an exception. */
    private static double nonFinite(JsonNode v, String label) {
        if (v.isNumber()) {
            return Double.NaN;
        }
        if (v.isTextual()) {
            switch (v.textValue()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw new StreamFormatException(label + " must be a number (or \"NaN\", \"Infinity\", \"-Infinity\")");
    }

    JsonNode array(String field, int minSize, int maxSize) {
        return array(get(field), at(field), minSize, maxSize);
    }

    static JsonNode array(JsonNode v, String label, int minSize, int maxSize) {
        if (!v.isArray()) {
            throw new StreamFormatException(label + " must be an array");
        }
        if (v.size() < minSize || v.size() > maxSize) {
            throw new StreamFormatException(label + " must have " + (minSize == maxSize ? "" : minSize + "..")
                + maxSize + " entries, had " + v.size());
        }
        return v;
    }

    Vec3 vec(String field) {
        JsonNode a = array(field, 3, 3);
        String label = at(field);
        return new Vec3(f32(a.get(0), label + "[0]"), f32(a.get(1), label + "[1]"), f32(a.get(2), label + "[2]"));
    }

    Quat quat(String field) {
        JsonNode a = array(field, 4, 4);
        String label = at(field);
        return new Quat(f32(a.get(0), label + "[0]"), f32(a.get(1), label + "[1]"), f32(a.get(2), label + "[2]"),
            f32(a.get(3), label + "[3]"));
    }

    String path() {
        return path;
    }

    /** Rejects any field that was not read. */
    void finish() {
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!read.contains(name)) {
                throw new StreamFormatException(at(name) + " is not a field of " + label(path));
            }
        }
    }
}
