package org.hapticsd.protocol;

/**
 * STATUS, device → host: sent when the status word or fault changes, and with every DEVICE_HEARTBEAT.
 *
 * <pre>
 * offset size type field
 * 0      2    u16  statusFlags  {@link StatusFlags}
 * 2      2    u16  faultCode    {@link #FAULT_NONE} .. {@link #FAULT_HOMING_FAILED}; other values vendor faults
 * 4      4    u32  faultDetail  code-specific (axis index, temperature in 0.01 °C, ...), 0 if none
 * version 2 only:
 * 8      2    u16  watchdogTrips  watchdog trips in this session, as in {@link State#watchdogTrips()}
 * </pre>
 *
 * Two bytes and no padding: a version-2 STATE (72 bytes on the wire) and a STATUS (18) fill a 1 kHz tick at
 * 1 Mbaud to 90 %, the budget of docs/device-protocol.md section 8.
 */
public final class Status extends Message {
    public static final int PAYLOAD_BYTES = 8;
    public static final int PAYLOAD_BYTES_V2 = 10;

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
    private int watchdogTrips;

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

    /** Version 2: the device's watchdog trips in this session, modulo 65536; {@link State#NOT_CARRIED} in version 1. */
    public int watchdogTrips() {
        return watchdogTrips;
    }

    /** Version 2's field (low 16 bits sent); a version-1 frame does not carry it. */
    public Status setWatchdogTrips(int watchdogTrips) {
        this.watchdogTrips = watchdogTrips & 0xFFFF;
        return this;
    }

    public Status set(int statusFlags, int faultCode, long faultDetail) {
        this.statusFlags = statusFlags & 0xFFFF;
        this.faultCode = faultCode & 0xFFFF;
        this.faultDetail = faultDetail & 0xFFFF_FFFFL;
        return this;
    }

    @Override
    void writePayload(byte[] dst, int offset, int version) {
        LittleEndian.putU16(dst, offset, statusFlags);
        LittleEndian.putU16(dst, offset + 2, faultCode);
        LittleEndian.putI32(dst, offset + 4, (int) faultDetail);
        if (version >= Frame.VERSION_2) {
            LittleEndian.putU16(dst, offset + 8, watchdogTrips);
        }
    }

    @Override
    boolean readPayload(byte[] src, int offset, int version) {
        statusFlags = LittleEndian.getU16(src, offset);
        faultCode = LittleEndian.getU16(src, offset + 2);
        faultDetail = LittleEndian.getU32(src, offset + 4);
        watchdogTrips = version >= Frame.VERSION_2 ? LittleEndian.getU16(src, offset + 8) : State.NOT_CARRIED;
        return true;
    }
}
