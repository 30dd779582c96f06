package org.hapticsd.protocol;

/**
 * STATE, device → host, one per tick: the end effector's pose and velocity.
 *
 * <pre>
 * offset size type    field
 * 0      4    u32     deviceTimeUs   device clock at sampling, µs, wraps every 2^32 µs (compare by subtraction)
 * 4      12   f32[3]  positionM      x, y, z, metres, device frame
 * 16     12   f32[3]  velocityMps    x, y, z, metres per second
 * 28     16   f32[4]  orientation    unit quaternion w, x, y, z; (1, 0, 0, 0) on 3-DOF devices
 * 44     2    u16     buttons        bit i = button i pressed
 * 46     2    u16     statusFlags    {@link StatusFlags}
 * </pre>
 *
 * float32 because encoders resolve ~10 µm over a workspace under 1 m while float32 resolves 6e-8 m at 1 m: a
 * float64 state would add 40 bytes per tick (56 → 96 on the wire) for no measurable gain. Time is a u32 count of
 * microseconds rather than a float so tick intervals stay exact.
 */
public final class State extends Message {
    public static final int PAYLOAD_BYTES = 48;

    private long deviceTimeUs;
    private final float[] positionM = new float[3];
    private final float[] velocityMps = new float[3];
    private final float[] orientation = {1f, 0f, 0f, 0f};
    private int buttons;
    private int statusFlags;

    @Override
    public MessageType type() {
        return MessageType.STATE;
    }

    public long deviceTimeUs() {
        return deviceTimeUs;
    }

    public float positionM(int axis) {
        return positionM[axis];
    }

    public float velocityMps(int axis) {
        return velocityMps[axis];
    }

    /** Quaternion component: 0 w, 1 x, 2 y, 3 z. */
    public float orientation(int component) {
        return orientation[component];
    }

    public int buttons() {
        return buttons;
    }

    public int statusFlags() {
        return statusFlags;
    }

    /** Only the low 32 bits are sent. */
    public State setDeviceTimeUs(long deviceTimeUs) {
        this.deviceTimeUs = deviceTimeUs & 0xFFFF_FFFFL;
        return this;
    }

    public State setPositionM(float x, float y, float z) {
        positionM[0] = x;
        positionM[1] = y;
        positionM[2] = z;
        return this;
    }

    public State setVelocityMps(float x, float y, float z) {
        velocityMps[0] = x;
        velocityMps[1] = y;
        velocityMps[2] = z;
        return this;
    }

    public State setOrientation(float w, float x, float y, float z) {
        orientation[0] = w;
        orientation[1] = x;
        orientation[2] = y;
        orientation[3] = z;
        return this;
    }

    public State setButtons(int buttons) {
        this.buttons = buttons & 0xFFFF;
        return this;
    }

    public State setStatusFlags(int statusFlags) {
        this.statusFlags = statusFlags & 0xFFFF;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset) {
        LittleEndian.putI32(dst, offset, (int) deviceTimeUs);
        for (int i = 0; i < 3; i++) {
            LittleEndian.putF32(dst, offset + 4 + 4 * i, positionM[i]);
            LittleEndian.putF32(dst, offset + 16 + 4 * i, velocityMps[i]);
        }
        for (int i = 0; i < 4; i++) {
            LittleEndian.putF32(dst, offset + 28 + 4 * i, orientation[i]);
        }
        LittleEndian.putU16(dst, offset + 44, buttons);
        LittleEndian.putU16(dst, offset + 46, statusFlags);
    }

    @Override
    boolean readPayload(byte[] src, int offset) {
        deviceTimeUs = LittleEndian.getU32(src, offset);
        for (int i = 0; i < 3; i++) {
            positionM[i] = LittleEndian.getF32(src, offset + 4 + 4 * i);
            velocityMps[i] = LittleEndian.getF32(src, offset + 16 + 4 * i);
        }
        for (int i = 0; i < 4; i++) {
            orientation[i] = LittleEndian.getF32(src, offset + 28 + 4 * i);
        }
        buttons = LittleEndian.getU16(src, offset + 44);
        statusFlags = LittleEndian.getU16(src, offset + 46);
        return true;
    }
}
