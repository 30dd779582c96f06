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
 * 48     12   f32[3]  appliedForceN  x, y, z, newtons: the force the device is applying at sampling, after its
 *                                    own clamp and watchdog (zero when output is off)
 * version 2 only:
 * 60     2    u16     ackSequence    sequence of the newest FORCE the device accepted in this session, or of the
 *                                    HELLO that opened it when none yet: this sample reflects every host frame up
 *                                    to that one
 * 62     2    u16     watchdogTrips  watchdog trips in this session, wraps 65535 → 0: the identity of a trip
 * </pre>
 *
 * Version 2's two fields make the link's two handshakes exact. A host that sees WATCHDOG_TRIPPED with a trip
 * count it has not yet re-armed knows it is a new trip, however soon after the last re-arm it came (without the
 * count a host cannot tell a new trip from a late report of the old one, and either re-arms twice or never). And
 * {@code ackSequence} tells the host that a FORCE arrived: the closing zero FORCE is known delivered before the
 * port is closed.
 *
 * The applied force lets the host record what the user actually felt, not only what it commanded: the two differ
 * whenever the device clamps, its watchdog trips, or output is off. It costs 12 bytes per tick (56 → 68 on the
 * wire) and still leaves a third of a 1 Mbaud link free at 1 kHz.
 *
 * float32 because encoders resolve ~10 µm over a workspace under 1 m while float32 resolves 6e-8 m at 1 m: a
 * float64 state would add 52 bytes per tick (68 → 120 on the wire) for no measurable gain. Time is a u32 count of
 * microseconds rather than a float so tick intervals stay exact.
 */
public final class State extends Message {
    public static final int PAYLOAD_BYTES = 60;
    public static final int PAYLOAD_BYTES_V2 = 64;
    /** What {@link #ackSequence()} and {@link #watchdogTrips()} read in a version-1 frame, which lacks them. */
    public static final int NOT_CARRIED = -1;

    private long deviceTimeUs;
    private final float[] positionM = new float[3];
    private final float[] velocityMps = new float[3];
    private final float[] orientation = {1f, 0f, 0f, 0f};
    private int buttons;
    private int statusFlags;
    private final float[] appliedForceN = new float[3];
    private int ackSequence;
    private int watchdogTrips;

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

    public float appliedForceN(int axis) {
        return appliedForceN[axis];
    }

    /** Version 2: sequence of the newest FORCE accepted (or the opening HELLO's); {@link #NOT_CARRIED} in version 1. */
    public int ackSequence() {
        return ackSequence;
    }

    /** Version 2: the device's watchdog trips in this session, modulo 65536; {@link #NOT_CARRIED} in version 1. */
    public int watchdogTrips() {
        return watchdogTrips;
    }

    /** Version 2's fields (low 16 bits of each are sent); a version-1 frame does not carry them. */
    public State setLinkCounters(int ackSequence, int watchdogTrips) {
        this.ackSequence = ackSequence & 0xFFFF;
        this.watchdogTrips = watchdogTrips & 0xFFFF;
        return this;
    }

    public State setAppliedForceN(float x, float y, float z) {
        appliedForceN[0] = x;
        appliedForceN[1] = y;
        appliedForceN[2] = z;
        return this;
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
    void writePayload(byte[] dst, int offset, int version) {
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
        for (int i = 0; i < 3; i++) {
            LittleEndian.putF32(dst, offset + 48 + 4 * i, appliedForceN[i]);
        }
        if (version >= Frame.VERSION_2) {
            LittleEndian.putU16(dst, offset + 60, ackSequence);
            LittleEndian.putU16(dst, offset + 62, watchdogTrips);
        }
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
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
        for (int i = 0; i < 3; i++) {
            appliedForceN[i] = LittleEndian.getF32(src, offset + 48 + 4 * i);
        }
        if (version >= Frame.VERSION_2) {
            ackSequence = LittleEndian.getU16(src, offset + 60);
            watchdogTrips = LittleEndian.getU16(src, offset + 62);
        } else {
            ackSequence = NOT_CARRIED;
            watchdogTrips = NOT_CARRIED;
        }
        // A measurement that is not a number is out of every range (spec 2.4): malformed, never a position.
        return allFinite(positionM) && allFinite(velocityMps) && allFinite(orientation) && allFinite(appliedForceN);
    }

    private static boolean allFinite(float[] values) {
        for (float v : values) {
            if (!Float.isFinite(v)) {
                return false;
            }
        }
        return true;
    }
}
