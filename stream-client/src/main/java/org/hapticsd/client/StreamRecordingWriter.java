package org.hapticsd.client;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * Writes stream messages to a file in the raw TCP port's framing (docs/stream-protocol.md 2.2), so a recording is
 * read with the protocol spec alone:
 *
 * <pre>
 *  +----------------+------------------------------------+----------------+-----
 *  | length (u32 LE)| binary message: header (4) + payload | length (u32 LE)| ...
 *  +----------------+------------------------------------+----------------+-----
 * </pre>
 *
 * <p>No file header: the first message of a recording made by {@code hapticsd watch} is the server's HELLO, which
 * carries the protocol version. Every message is written in its binary form, whatever form it arrived in (a JSON
 * WebSocket connection's messages are re-encoded). Synchronized, so the client's I/O thread may write while another
 * thread closes.
 */
public final class StreamRecordingWriter implements AutoCloseable {
    private final OutputStream out;
    private final byte[] prefix = new byte[StreamProtocol.TCP_LENGTH_PREFIX_BYTES];
    private long messages;
    private long bytes;

    /** Creates or truncates {@code file}. */
    public StreamRecordingWriter(Path file) throws IOException {
        this.out = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
    }

    public synchronized void write(StreamMessage message) throws IOException {
        byte[] encoded = StreamCodec.encode(message);
        int n = encoded.length;
        prefix[0] = (byte) n;
        prefix[1] = (byte) (n >>> 8);
        prefix[2] = (byte) (n >>> 16);
        prefix[3] = (byte) (n >>> 24);
        out.write(prefix);
        out.write(encoded);
        messages++;
        bytes += prefix.length + n;
    }

    public synchronized void flush() throws IOException {
        out.flush();
    }

    /** Messages written so far. */
    public synchronized long messages() {
        return messages;
    }

    /** Bytes written so far, length prefixes included. */
    public synchronized long bytes() {
        return bytes;
    }

    /** Flushes and closes the file. */
    @Override
    public synchronized void close() throws IOException {
        out.close();
    }
}
