package org.hapticsd.protocol;

/** The messages behind the spec's test vectors: one per type, fields chosen to be exact in float32. */
final class Samples {
    private Samples() {
    }

    static Hello hello() {
        return new Hello().set(1, 1, 1000);
    }

    static Info info() {
        return new Info()
            .setVersionAndDof(1, 6, 3)
            .setSelectedRateIndex(3)
            .setFirmware(2, 5, 17)
            .setWorkspaceM(-0.125f, -0.0625f, -0.1f, 0.125f, 0.0625f, 0.1f)
            .setRatings(8.5f, 3.0f, 2500f, 2.0f)
            .setSupportedRates(0x000C)
            .setName("Falcon-X");
    }

    static State state() {
        return new State()
            .setDeviceTimeUs(1_000_000L)
            .setPositionM(0.01f, -0.02f, 0.03f)
            .setVelocityMps(0.5f, 0f, -0.25f)
            .setOrientation(1f, 0f, 0f, 0f)
            .setButtons(0x0001)
            .setStatusFlags(StatusFlags.OUTPUT_ENABLED | StatusFlags.HOMED)
            .setAppliedForceN(1.5f, -2.0f, 0.25f);
    }

    /** The version-1 sample plus version 2's fields: FORCE 0x00FE acknowledged, two watchdog trips. */
    static State stateV2() {
        return state().setLinkCounters(0x00FE, 2);
    }

    static Force force() {
        return new Force().setForceN(1.5f, -2.0f, 0.25f).setTorqueNm(0f, 0f, 0f).setOutputEnabled(true);
    }

    static Heartbeat hostHeartbeat() {
        return new Heartbeat(Direction.HOST_TO_DEVICE).setSenderTimeUs(123_456_789L);
    }

    static Heartbeat deviceHeartbeat() {
        return new Heartbeat(Direction.DEVICE_TO_HOST).setSenderTimeUs(0xFFFF_FFFFL);
    }

    static Status status() {
        return new Status().set(StatusFlags.FAULT | StatusFlags.WATCHDOG_TRIPPED | StatusFlags.HOMED,
            Status.FAULT_WATCHDOG, 7);
    }

    /** The version-1 sample plus version 2's trip count: the third trip of the session. */
    static Status statusV2() {
        return status().setWatchdogTrips(3);
    }

    static HomingRequest homingRequest() {
        return new HomingRequest().set(HomingRequest.ACTION_START, 5000);
    }

    static HomingProgress homingProgress() {
        return new HomingProgress().set(HomingProgress.PHASE_RUNNING, 40, 0);
    }

    static Ping ping() {
        return new Ping().setToken(0xDEAD_BEEFL);
    }

    static Pong pong() {
        return new Pong().set(0xDEAD_BEEFL, 2_000_000L);
    }

    static String hex(byte[] bytes, int offset, int length) {
        StringBuilder sb = new StringBuilder();
        for (int i = offset; i < offset + length; i++) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(String.format("%02x", bytes[i] & 0xFF));
        }
        return sb.toString();
    }

    static byte[] unhex(String text) {
        String[] parts = text.trim().split("\\s+");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }
}
