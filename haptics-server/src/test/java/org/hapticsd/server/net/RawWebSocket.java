package org.hapticsd.server.net;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

/**
 * A WebSocket client written from RFC 6455 alone, over a plain socket, for conformance tests: it sends frames
 * exactly as asked (fragmented, oversized, any opcode) and reports every frame the server sends, close frames
 * included, where a library client would hide them. Client frames are masked, as section 5.3 requires.
 */
final class RawWebSocket implements AutoCloseable {
    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;
    static final int PING = 0x9;
    static final int PONG = 0xA;

    /** One frame from the server: its FIN bit, opcode and payload. */
    record Frame(boolean fin, int opcode, byte[] payload) {
        /** A close frame's status code (section 5.5.1), or -1 without one. */
        int closeStatus() {
            return payload.length >= 2 ? (payload[0] & 0xFF) << 8 | payload[1] & 0xFF : -1;
        }
    }

    /** One whole message from the server, its fragments joined. */
    record Message(int opcode, byte[] payload) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final Random masks = new Random(14);
    /** The HTTP status line of the handshake's answer. */
    final String statusLine;

    private RawWebSocket(Socket socket, String statusLine) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
        this.statusLine = statusLine;
    }

    /**
     * Sends the opening handshake for {@code pathAndQuery} on 127.0.0.1:{@code port} and reads the answer's head.
     * Returns the connection whatever the status; {@link #upgraded()} says whether it is a WebSocket now.
     */
    static RawWebSocket connect(int port, String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000);
        byte[] key = new byte[16];
        new Random(port).nextBytes(key);
        String request = "GET " + pathAndQuery + " HTTP/1.1\r\n"
            + "Host: 127.0.0.1:" + port + "\r\n"
            + "Upgrade: websocket\r\n"
            + "Connection: Upgrade\r\n"
            + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key) + "\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n";
        socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().flush();
        String head = readHead(socket);
        int end = head.indexOf("\r\n");
        return new RawWebSocket(socket, end < 0 ? head : head.substring(0, end));
    }

    /** The answer's head, up to and including the blank line, byte by byte so no frame byte is consumed. */
    private static String readHead(Socket socket) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (true) {
            int b = socket.getInputStream().read();
            if (b < 0) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
            head.write(b);
            byte[] bytes = head.toByteArray();
            int n = bytes.length;
            if (n >= 4 && bytes[n - 4] == '\r' && bytes[n - 3] == '\n' && bytes[n - 2] == '\r' && bytes[n - 1] == '\n') {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
    }

    boolean upgraded() {
        return statusLine.startsWith("HTTP/1.1 101");
    }

    /** The status code of the handshake's answer (101 when upgraded). */
    int status() {
        String[] parts = statusLine.split(" ");
        return parts.length >= 2 ? Integer.parseInt(parts[1]) : -1;
    }

    /** Sends one frame, masked. */
    void sendFrame(boolean fin, int opcode, byte[] payload) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(14 + payload.length);
        frame.put((byte) ((fin ? 0x80 : 0) | opcode));
        if (payload.length < 126) {
            frame.put((byte) (0x80 | payload.length));
        } else if (payload.length < 65_536) {
            frame.put((byte) (0x80 | 126)).putShort((short) payload.length);
        } else {
            frame.put((byte) (0x80 | 127)).putLong(payload.length);
        }
        byte[] mask = new byte[4];
        masks.nextBytes(mask);
        frame.put(mask);
        for (int i = 0; i < payload.length; i++) {
            frame.put((byte) (payload[i] ^ mask[i & 3]));
        }
        out.write(frame.array(), 0, frame.position());
        out.flush();
    }

    /** Sends {@code payload} as one message of {@code opcode} cut into {@code fragments} frames (section 5.4). */
    void sendFragmented(int opcode, byte[] payload, int fragments) throws IOException {
        int step = (payload.length + fragments - 1) / fragments;
        for (int i = 0, at = 0; i < fragments; i++, at += step) {
            int end = Math.min(payload.length, at + step);
            byte[] part = java.util.Arrays.copyOfRange(payload, Math.min(at, end), end);
            sendFrame(i == fragments - 1, i == 0 ? opcode : CONTINUATION, part);
        }
    }

    void sendBinary(byte[] message) throws IOException {
        sendFrame(true, BINARY, message);
    }

    void sendText(String message) throws IOException {
        sendFrame(true, TEXT, message.getBytes(StandardCharsets.UTF_8));
    }

    /** The next frame from the server; throws {@link EOFException} at end of stream. */
    Frame readFrame() throws IOException {
        int b0 = in.readUnsignedByte();
        int b1 = in.readUnsignedByte();
        long length = b1 & 0x7F;
        if (length == 126) {
            length = in.readUnsignedShort();
        } else if (length == 127) {
            length = in.readLong();
        }
        if ((b1 & 0x80) != 0) {
            throw new IOException("a server frame must not be masked (RFC 6455 section 5.1)");
        }
        byte[] payload = new byte[Math.toIntExact(length)];
        in.readFully(payload);
        return new Frame((b0 & 0x80) != 0, b0 & 0x0F, payload);
    }

    /**
     * The next whole data message, fragments joined; control frames in between are skipped, except a close frame,
     * which is returned as a message of opcode {@link #CLOSE}.
     */
    Message readMessage() throws IOException {
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        int opcode = -1;
        while (true) {
            Frame frame = readFrame();
            if (frame.opcode() == CLOSE) {
                return new Message(CLOSE, frame.payload());
            }
            if (frame.opcode() == PING || frame.opcode() == PONG) {
                continue;
            }
            if (opcode < 0) {
                opcode = frame.opcode();
            }
            joined.writeBytes(frame.payload());
            if (frame.fin()) {
                return new Message(opcode, joined.toByteArray());
            }
        }
    }

    Socket socket() {
        return socket;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
