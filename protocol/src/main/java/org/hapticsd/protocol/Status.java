package org.hapticsd.protocol;

/**
 * STATUS, device → host: sent when the status word or fault changes, and with every DEVICE_HEARTBEAT.
 *
 * <pre>
 * offset size type field
 * 0      2    u16  statusFlags  {@link StatusFlags}
 * 2      2    u16  faultCode    {@link #FAULT_NONE} .. {@link #FAULT_HOMING_FAILED}; other values vendor faults
 * 4      4    u32  faultDetail  code-specific (axis index, temperature in 0.01 °C, ...), 0 if none
 * </pre>
 */
public final class Status extends Message {
    public static final int PAYLOAD_BYTES = 8;

    public static final int FAULT_NONE = 0;
    public static final int FAULT_OVER_TEMPERATURE = 1;
    public static final int FAULT_OVER_CURRENT = 2;
    public static final int FAULT_ENCODER = 3;
    public static final int FAULT_ESTOP = 4;
    public static final int FAULT_WATCHDOG = 5;
    public static final int FAULT_INCOMPATIBLE_VERSION = 6;
    public static final int FAULT_POWER_SUPPLY = 7;
    public static final int FAULT_HOMING_FAILED = 8;

    private int statusFlags;
    private int faultCode;
    private long faultDetail;

    @Override
    public MessageType type() {
        return MessageType.STATUS;
    }

    public int statusFlags() {
        return statusFlags;
    }

    public int faultCode() {
        return faultCode;
    }

    public long faultDetail() {
        return faultDetail;
    }

    public Status set(int statusFlags, int faultCode, long faultDetail) {
        this.statusFlags = statusFlags & 0xFFFF;
        this.faultCode = faultCode & 0xFFFF;
        this.faultDetail = faultDetail & 0xFFFF_FFFFL;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset) {
        LittleEndian.putU16(dst, offset, statusFlags);
        LittleEndian.putU16(dst, offset + 2, faultCode);
        LittleEndian.putI32(dst, offset + 4, (int) faultDetail);
    }

    @Override
    boolean readPayload(byte[] src, int offset) {
        statusFlags = LittleEndian.getU16(src, offset);
        faultCode = LittleEndian.getU16(src, offset + 2);
        faultDetail = LittleEndian.getU32(src, offset + 4);
        return true;
    }
}
