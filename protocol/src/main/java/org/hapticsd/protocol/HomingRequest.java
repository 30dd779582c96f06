package org.hapticsd.protocol;

/**
 * HOMING_REQUEST, host → device: starts or aborts a homing (encoder referencing) run. The device answers with
 * {@link HomingProgress} at least every 100 ms until the run ends.
 *
 * <pre>
 * offset size type field
 * 0      1    u8   action     {@link #ACTION_START} or {@link #ACTION_ABORT}; other values malformed
 * 1      1    u8   reserved   sent 0, ignored
 * 2      2    u16  timeoutMs  the device fails the run after this long; 0 = device default
 * </pre>
 */
public final class HomingRequest extends Message {
    public static final int PAYLOAD_BYTES = 4;
    public static final int ACTION_START = 1;
    public static final int ACTION_ABORT = 2;

    private int action = ACTION_START;
    private int timeoutMs;

    @Override
    public MessageType type() {
        return MessageType.HOMING_REQUEST;
    }

    public int action() {
        return action;
    }

    public int timeoutMs() {
        return timeoutMs;
    }

    public HomingRequest set(int action, int timeoutMs) {
        this.action = action & 0xFF;
        this.timeoutMs = timeoutMs & 0xFFFF;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putU8(dst, offset, action);
        LittleEndian.putU8(dst, offset + 1, 0);
        LittleEndian.putU16(dst, offset + 2, timeoutMs);
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        action = LittleEndian.getU8(src, offset);
        timeoutMs = LittleEndian.getU16(src, offset + 2);
        return action == ACTION_START || action == ACTION_ABORT;
    }
}
