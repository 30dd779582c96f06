package org.hapticsd.server.net;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamMessageType;
import org.hapticsd.protocol.stream.SubscribeMessage;

/**
 * JDK clients of a running stream server for the end-to-end tests: readers that count the STATE messages they
 * receive (raw TCP on a thread each, WebSocket through one shared {@link HttpClient}), and raw TCP clients that
 * subscribe and then never read. Only the message type byte is looked at (docs/stream-protocol.md, section 3).
 */
final class StreamClients implements AutoCloseable {
    private final String host;
    private final int httpPort;
    private final int tcpPort;
    private final HttpClient http = HttpClient.newHttpClient();
    private final List<AutoCloseable> open = new ArrayList<>();
    private final List<AtomicLong> counters = new ArrayList<>();

    StreamClients(StreamServer server) {
        this.host = server.config().bindAddress();
        this.httpPort = server.httpPort();
        this.tcpPort = server.tcpPort();
    }

    /** A raw TCP reader at {@code rateHz} (0 = every tick); returns its STATE count. */
    AtomicLong tcpReader(int rateHz) throws IOException {
        Socket socket = new Socket(host, tcpPort);
        subscribe(socket, rateHz);
        AtomicLong states = newCounter();
        Thread reader = new Thread(() -> {
            try {
                DataInputStream in = new DataInputStream(socket.getInputStream());
                while (true) {
                    byte[] message = new byte[Integer.reverseBytes(in.readInt())];
                    in.readFully(message);
                    if (isState(message)) {
                        states.incrementAndGet();
                    }
                }
            } catch (IOException closed) {
                // End of stream or the socket closed by close(): the reader's work is over.
            }
        }, "test-tcp-reader");
        reader.setDaemon(true);
        reader.start();
        open.add(socket);
        return states;
    }

    /**
     * A raw TCP client that subscribes at {@code rateHz} and never reads, with a 4 KiB receive buffer so the server
     * sees it full soon.
     */
    Socket tcpNonReader(int rateHz) throws IOException {
        Socket socket = new Socket();
        socket.setReceiveBufferSize(4096);
        socket.connect(new InetSocketAddress(host, tcpPort));
        subscribe(socket, rateHz);
        open.add(socket);
        return socket;
    }

    /** A binary WebSocket reader at {@code rateHz} (0 = every tick); returns its STATE count. */
    AtomicLong webSocketReader(int rateHz) {
        AtomicLong states = newCounter();
        WebSocket ws = http.newWebSocketBuilder().buildAsync(
            URI.create("ws://" + host + ":" + httpPort + "/ws?format=binary&rate=" + rateHz),
            new WebSocket.Listener() {
                private ByteBuffer partial = ByteBuffer.allocate(0);

                @Override
                public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
                    ByteBuffer joined = ByteBuffer.allocate(partial.remaining() + data.remaining());
                    joined.put(partial).put(data).flip();
                    if (last) {
                        if (joined.remaining() >= 2 && joined.get(1) == (byte) StreamMessageType.STATE.code()) {
                            states.incrementAndGet();
                        }
                        partial = ByteBuffer.allocate(0);
                    } else {
                        partial = joined;
                    }
                    webSocket.request(1);
                    return null;
                }
            }).join();
        open.add(ws::abort);
        return states;
    }

    private AtomicLong newCounter() {
        AtomicLong counter = new AtomicLong();
        counters.add(counter);
        return counter;
    }

    /** Every reader's STATE count, in the order they were opened. */
    List<AtomicLong> counters() {
        return counters;
    }

    private static void subscribe(Socket socket, int rateHz) throws IOException {
        byte[] message = StreamCodec.encode(new SubscribeMessage(rateHz));
        OutputStream out = socket.getOutputStream();
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(message.length).array());
        out.write(message);
        out.flush();
    }

    private static boolean isState(byte[] message) {
        return message.length >= 2 && message[1] == (byte) StreamMessageType.STATE.code();
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
        open.clear();
    }
}
