package org.hapticsd.protocol;

/**
 * FORCE, host → device, one per tick: the wrench to apply at the end effector, in the device frame.
 *
 * <pre>
 * offset size type    field
 * 0      12   f32[3]  forceN     x, y, z, newtons
 * 12     12   f32[3]  torqueNm   x, y, z, newton-metres (0 on 3-DOF devices)
 * 24     1    u8      flags      bit 0 outputEnable; bits 1-7 reserved, sent 0, ignored
 * 25     1    u8      reserved   sent 0, ignored
 * </pre>
 *
 * float32 because the device's DAC resolves 12 to 16 bits of its maximum force, and float32 keeps 24 bits: a
 * float64 wrench would add 24 bytes per tick for resolution no actuator has.
 */
public final class Force extends Message {
    public static final int PAYLOAD_BYTES = 26;
    public static final int FLAG_OUTPUT_ENABLE = 0x01;

    private final float[] forceN = new float[3];
    private final float[] torqueNm = new float[3];
    private boolean outputEnabled;

    @Override
    public MessageType type() {
        return MessageType.FORCE;
    }

    /** Component {@code axis} (0 x, 1 y, 2 z). */
    public float forceN(int axis) {
        return forceN[axis];
    }

    public float torqueNm(int axis) {
        return torqueNm[axis];
    }

    public boolean outputEnabled() {
        return outputEnabled;
    }

    public Force setForceN(float x, float y, float z) {
        forceN[0] = x;
        forceN[1] = y;
        forceN[2] = z;
        return this;
    }

    public Force setTorqueNm(float x, float y, float z) {
        torqueNm[0] = x;
        torqueNm[1] = y;
        torqueNm[2] = z;
        return this;
    }

    public Force setOutputEnabled(boolean outputEnabled) {
        this.outputEnabled = outputEnabled;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        for (int i = 0; i < 3; i++) {
            LittleEndian.putF32(dst, offset + 4 * i, forceN[i]);
            LittleEndian.putF32(dst, offset + 12 + 4 * i, torqueNm[i]);
        }
        LittleEndian.putU8(dst, offset + 24, outputEnabled ? FLAG_OUTPUT_ENABLE : 0);
        LittleEndian.putU8(dst, offset + 25, 0);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        for (int i = 0; i < 3; i++) {
            forceN[i] = LittleEndian.getF32(src, offset + 4 * i);
            torqueNm[i] = LittleEndian.getF32(src, offset + 12 + 4 * i);
        }
        outputEnabled = (LittleEndian.getU8(src, offset + 24) & FLAG_OUTPUT_ENABLE) != 0;
        return true;
    }
}
