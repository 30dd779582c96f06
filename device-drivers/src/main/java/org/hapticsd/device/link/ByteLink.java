package org.hapticsd.device.link;

import java.io.IOException;

/**
 * A full-duplex byte stream to a device or a host: a serial port or a TCP connection. Blocking, so it is used
 * only from a link's own I/O threads, never from the loop thread. One thread reads and one thread writes; the
 * two may run at the same time.
 */
public interface ByteLink extends AutoCloseable {

    /**
     * Reads up to {@code length} bytes, waiting at most the link's read timeout for the first.
     *
     * @return bytes read; 0 when the timeout passed with nothing to read
     * @throws IOException when the link broke or the peer closed it (a lost device or host)
     */
    int read(byte[] buffer, int offset, int length) throws IOException;

    /** Bytes that {@link #read} would return without waiting. */
    int available() throws IOException;

    /** Writes all {@code length} bytes. */
    void write(byte[] buffer, int offset, int length) throws IOException;

    /** What this link is connected to, for messages: {@code serial:/dev/ttyACM0}, {@code tcp:127.0.0.1:7000}. */
    String name();

    /** Releases the port or socket; a blocked {@link #read} returns or throws. Idempotent. */
    @Override
    void close();
}
