package org.hapticsd.protocol;

/**
 * HOMING_PROGRESS, device → host: progress and result of a homing run.
 *
 * <pre>
 * offset size type field
 * 0      1    u8   phase        {@link #PHASE_IDLE} .. {@link #PHASE_ABORTED}; other values malformed
 * 1      1    u8   percent      0..100; other values malformed
 * 2      2    u16  resultCode   a {@link Status} fault code when phase is FAILED, else 0
 * </pre>
 */
public final class HomingProgress extends Message {
    public static final int PAYLOAD_BYTES = 4;
    public static final int PHASE_IDLE = 0;
    public static final int PHASE_RUNNING = 1;
    public static final int PHASE_SUCCEEDED = 2;
    public static final int PHASE_FAILED = 3;
    public static final int PHASE_ABORTED = 4;

    private int phase;
    private int percent;
    private int resultCode;

    @Override
    public MessageType type() {
        return MessageType.HOMING_PROGRESS;
    }

    public int phase() {
        return phase;
    }

    public int percent() {
        return percent;
    }

    public int resultCode() {
        return resultCode;
    }

    public HomingProgress set(int phase, int percent, int resultCode) {
        this.phase = phase & 0xFF;
        this.percent = percent & 0xFF;
        this.resultCode = resultCode & 0xFFFF;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putU8(dst, offset, phase);
        LittleEndian.putU8(dst, offset + 1, percent);
        LittleEndian.putU16(dst, offset + 2, resultCode);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        phase = LittleEndian.getU8(src, offset);
        percent = LittleEndian.getU8(src, offset + 1);
        resultCode = LittleEndian.getU16(src, offset + 2);
        return phase <= PHASE_ABORTED && percent <= 100;
    }
}
