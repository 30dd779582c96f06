package org.hapticsd.protocol.stream;

/**
 * A rotation as a quaternion, scalar first (w, x, y, z) as in the scene files. The sender sends unit quaternions;
 * the codec does not renormalise, so a round trip is bit-exact.
 */
public record Quat(float w, float x, float y, float z) {
    public static final Quat IDENTITY = new Quat(1f, 0f, 0f, 0f);
}
