package org.hapticsd.device.link;

import com.fazecast.jSerialComm.SerialPort;
import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The device link over a serial port (USB CDC-ACM, an FTDI adapter, a pseudo-terminal) through jSerialComm:
 * 8 data bits, no parity, one stop bit, no flow control, as the protocol's byte budget assumes (8N1).
 *
 * <p>Reads are semi-blocking (return as soon as one byte arrived, or after the read timeout with none); writes
 * block until the bytes are queued, and fail when the port takes no byte for {@link #WRITE_STALL_NS}. jSerialComm reports errors as -1 rather than exceptions; they become
 * {@link IOException}s naming the port. An unplugged adapter keeps {@code isOpen()} true, so loss is detected
 * by read errors and by frame age upstream, never by asking the port.
 */
public final class SerialByteLink implements ByteLink {
    /** A write that makes no progress for this long fails: far beyond any device's frame time. */
    static final long WRITE_STALL_NS = 500_000_000L;
    /** The pause between attempts while the port takes nothing. */
    private static final long WRITE_RETRY_NS = 200_000L;

    private final SerialPort port;
    private final String name;

    private SerialByteLink(SerialPort port, String name) {
        this.port = port;
        this.name = name;
    }

    /**
     * Opens {@code portName} (a system name such as {@code ttyACM0}, or a path such as {@code /dev/ttyUSB0} or a
     * pseudo-terminal's {@code /dev/pts/3}) at {@code baud}.
     */
    public static SerialByteLink open(String portName, int baud, int readTimeoutMs) throws IOException {
        String name = "serial:" + portName + ":" + baud;
        SerialPort port;
        try {
            port = SerialPort.getCommPort(portName);
        } catch (RuntimeException e) {
            // jSerialComm's own words here name its internals ("Unable to create a serial port object from the
            // invalid port descriptor"); the user needs to know the port is not there.
            throw new IOException(name + ": no such port (" + portName + " does not exist or is not a serial port)", e);
        }
        port.setComPortParameters(baud, 8, SerialPort.ONE_STOP_BIT, SerialPort.NO_PARITY);
        port.setFlowControl(SerialPort.FLOW_CONTROL_DISABLED);
        port.setComPortTimeouts(SerialPort.TIMEOUT_READ_SEMI_BLOCKING | SerialPort.TIMEOUT_WRITE_BLOCKING,
                readTimeoutMs, 0);
        if (!port.openPort()) {
            throw new IOException(name + ": cannot open: " + reason(port.getLastErrorCode()));
        }
        return new SerialByteLink(port, name);
    }

    /**
     * What jSerialComm's last error code means, in words. On Linux and macOS it is the C library's errno; the codes a
     * serial port meets are named, others given as their number. A tester's second host on a busy pty read
     * "cannot open (error 11 at 536; does the port exist and may this user open it?)": 11 is the lock another process
     * holds, and 536 a line of jSerialComm's C source.
     */
    static String reason(int code) {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (!os.contains("linux") && !os.contains("mac")) {
            return "system error " + code;
        }
        String words = switch (code) {
            case 1 -> "operation not permitted";
            case 2 -> "no such file or directory";
            case 5 -> "input/output error";
            case 6 -> "no such device or address (not a serial port, or its other end is gone)";
            case 11 -> "another process has the port open (it holds the port's lock)";
            case 13 -> "permission denied (is this user in the port's group, e.g. dialout?)";
            case 16 -> "the port is busy";
            case 19 -> "no such device";
            case 20, 21 -> "not a serial port";
            case 25 -> "not a serial port (inappropriate ioctl for device)";
            default -> null;
        };
        return words == null ? "system error " + code : words + " (errno " + code + ")";
    }

    public static LinkConnector connector(String portName, int baud, int readTimeoutMs) {
        return new LinkConnector() {
            @Override
            public ByteLink connect() throws IOException {
                return SerialByteLink.open(portName, baud, readTimeoutMs);
            }

            @Override
            public String name() {
                return "serial:" + portName + ":" + baud;
            }
        };
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = port.readBytes(buffer, length, offset);
        if (n < 0) {
            throw new IOException(name + ": read failed: " + reason(port.getLastErrorCode()) + "; device unplugged?");
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        int n = port.bytesAvailable();
        if (n < 0) {
            throw new IOException(name + ": port failed: " + reason(port.getLastErrorCode()));
        }
        return n;
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        int written = 0;
        long stalledSinceNs = 0;
        boolean stalled = false;
        while (written < length) {
            int n = port.writeBytes(buffer, length - written, offset + written);
            if (n < 0) {
                throw new IOException(name + ": write failed: " + reason(port.getLastErrorCode()));
            }
            if (n > 0) {
                written += n;
                stalled = false;
                continue;
            }
            // The port took nothing: a full output buffer that nobody drains (a pty whose other side is gone, a
            // device that stopped reading). Retrying without limit spun a core forever on the caller's thread.
            long nowNs = System.nanoTime();
            if (!stalled) {
                stalled = true;
                stalledSinceNs = nowNs;
            } else if (nowNs - stalledSinceNs > WRITE_STALL_NS) {
                throw new IOException(name + ": write stalled: the port took no byte for "
                    + WRITE_STALL_NS / 1_000_000 + " ms (the device stopped reading, or the other side is gone)");
            }
            LockSupport.parkNanos(WRITE_RETRY_NS);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        port.closePort();
    }
}
