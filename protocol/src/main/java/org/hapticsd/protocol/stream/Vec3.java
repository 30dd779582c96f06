package org.hapticsd.protocol.stream;

/** Three float32 components; the field that holds it names the unit and frame. */
public record Vec3(float x, float y, float z) {
    public static final Vec3 ZERO = new Vec3(0f, 0f, 0f);
}
