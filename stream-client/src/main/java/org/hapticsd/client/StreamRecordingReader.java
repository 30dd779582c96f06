package org.hapticsd.client;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * Reads a recording written by {@link StreamRecordingWriter}: u32 little-endian length, then that many bytes of one
 * binary stream message, to the end of the file.
 */
public final class StreamRecordingReader implements AutoCloseable {
    private final InputStream in;
    private long offset;

    public StreamRecordingReader(Path file) throws IOException {
        this.in = new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
    }

    /** Every message of the file, in order. */
    public static List<StreamMessage> readAll(Path file) throws IOException {
        List<StreamMessage> messages = new ArrayList<>();
        try (StreamRecordingReader reader = new StreamRecordingReader(file)) {
            for (StreamMessage m = reader.next(); m != null; m = reader.next()) {
                messages.add(m);
            }
        }
        return messages;
    }

    /**
     * The next message, or null at the end of the file.
     *
     * @throws StreamFormatException naming the file offset, for a length outside 4..1 MiB or a message that does
     *                               not decode
     * @throws EOFException          if the file ends inside a length or a message (a recording cut short)
     */
    public StreamMessage next() throws IOException {
        byte[] prefix = in.readNBytes(StreamProtocol.TCP_LENGTH_PREFIX_BYTES);
        if (prefix.length == 0) {
            return null;
        }
        if (prefix.length < StreamProtocol.TCP_LENGTH_PREFIX_BYTES) {
            throw new EOFException("recording ends inside the length prefix at offset " + offset);
        }
        long length = (prefix[0] & 0xFFL) | (prefix[1] & 0xFFL) << 8 | (prefix[2] & 0xFFL) << 16
            | (prefix[3] & 0xFFL) << 24;
        if (length < StreamProtocol.HEADER_BYTES || length > StreamProtocol.MAX_SERVER_MESSAGE_BYTES) {
            throw new StreamFormatException("length " + length + " at offset " + offset + " is outside 4.."
                + StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        }
        byte[] message = in.readNBytes((int) length);
        if (message.length < length) {
            throw new EOFException("recording ends inside the message at offset " + offset + " (" + message.length
                + " of " + length + " bytes)");
        }
        long at = offset;
        offset += StreamProtocol.TCP_LENGTH_PREFIX_BYTES + length;
        try {
            return StreamCodec.decode(message);
        } catch (StreamFormatException e) {
            throw new StreamFormatException("message at offset " + at + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
