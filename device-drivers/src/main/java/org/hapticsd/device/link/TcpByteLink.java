package org.hapticsd.device.link;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The device link over TCP, for serial-to-network bridges and for tests. Nagle's algorithm is off: a FORCE frame
 * is 34 bytes and must leave at once, not wait to be coalesced with the next tick's.
 */
public final class TcpByteLink implements ByteLink {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final String name;

    /** Wraps a connected socket (from {@link #connect} or a server's accept). */
    public TcpByteLink(Socket socket, int readTimeoutMs) throws IOException {
        this.socket = socket;
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(readTimeoutMs);
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
        this.name = "tcp:" + socket.getInetAddress().getHostAddress() + ":" + socket.getPort();
    }

    public static TcpByteLink connect(String host, int port, int connectTimeoutMs, int readTimeoutMs)
            throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(host, port), connectTimeoutMs);
            return new TcpByteLink(socket, readTimeoutMs);
        } catch (IOException e) {
            socket.close();
            throw new IOException("tcp:" + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /** A connector that opens a new connection each time. */
    public static LinkConnector connector(String host, int port, int connectTimeoutMs, int readTimeoutMs) {
        return new LinkConnector() {
            @Override
            public ByteLink connect() throws IOException {
                return TcpByteLink.connect(host, port, connectTimeoutMs, readTimeoutMs);
            }

            @Override
            public String name() {
                return "tcp:" + host + ":" + port;
            }
        };
    }

    /**
     * A connector for the device side of a TCP link: each {@link LinkConnector#connect()} waits for the next host
     * to connect to {@code server}, or throws {@link SocketTimeoutException} after the read timeout so the caller
     * can do other work between hosts. One host at a time, like a serial port.
     */
    public static LinkConnector acceptor(java.net.ServerSocket server, int readTimeoutMs) throws IOException {
        // Accept gives up after a read timeout so the device's own thread keeps running between hosts.
        server.setSoTimeout(Math.max(readTimeoutMs, 1));
        String name = "tcp:" + server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
        return new LinkConnector() {
            @Override
            public ByteLink connect() throws IOException {
                return new TcpByteLink(server.accept(), readTimeoutMs);
            }

            @Override
            public String name() {
                return name;
            }
        };
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            int n = in.read(buffer, offset, length);
            if (n < 0) {
                throw new PeerClosedException(name + ": closed by the peer");
            }
            return n;
        } catch (SocketTimeoutException timeout) {
            return 0;
        }
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void write(byte[] buffer, int offset, int length) throws IOException {
        try {
            out.write(buffer, offset, length);
        } catch (java.net.SocketException e) {
            throw peerClosed(e) ? new PeerClosedException(name + ": closed by the peer", e) : e;
        }
    }

    /**
     * Whether a failed write means the peer had closed its socket. On TCP, EPIPE ("Broken pipe") is a write after
     * the peer's FIN, and ECONNRESET ("Connection reset") the peer's RST, which its kernel sends when it closes with
     * our bytes still unread: both are how a host leaves while STATE frames are in flight. The JDK reports them only
     * as message text ({@code SocketException} carries no errno). Other errors (a timeout, an unreachable network)
     * are the link failing and stay errors.
     */
    static boolean peerClosed(java.net.SocketException e) {
        String message = e.getMessage();
        return message != null && (message.startsWith("Broken pipe") || message.startsWith("Connection reset"));
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing a socket that failed: nothing left to release.
        }
    }
}
