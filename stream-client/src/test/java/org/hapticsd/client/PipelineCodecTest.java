package org.hapticsd.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.ContinuationWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;
import java.io.IOException;
import java.net.URI;
import java.security.cert.CertPathBuilderException;
import java.util.HexFormat;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.junit.jupiter.api.Test;

/**
 * The client's pipelines on an {@link EmbeddedChannel}, with the spec's test vectors (docs/stream-protocol.md 9):
 * bytes in → messages out, messages out → bytes, and the framing and decoding errors the session handler acts on.
 */
class PipelineCodecTest {
    private static final byte[] HELLO = hex("02 01 00 00 02 00 e8 03 05 00 30 2e 31 2e 30");
    private static final byte[] ACK_REFUSED = hex("02 05 00 00 2b 00 00 00 00 09 00 62 61 64 20 74 6f 6b 65 6e");
    private static final byte[] SUBSCRIBE_60 = hex("02 81 00 00 3c 00");
    private static final byte[] COMMAND_PAUSE = hex("02 82 00 00 01 00 00 00 01 06 00 73 33 63 72 65 74");

    private static byte[] hex(String spaced) {
        return HexFormat.of().parseHex(spaced.replace(" ", ""));
    }

    private static byte[] lengthPrefixed(byte[] message) {
        byte[] out = new byte[4 + message.length];
        out[0] = (byte) message.length;
        out[1] = (byte) (message.length >>> 8);
        out[2] = (byte) (message.length >>> 16);
        out[3] = (byte) (message.length >>> 24);
        System.arraycopy(message, 0, out, 4, message.length);
        return out;
    }

    private static EmbeddedChannel tcp(int maxMessageBytes) {
        EmbeddedChannel ch = new EmbeddedChannel();
        StreamClientInitializer.addTcpFraming(ch.pipeline(), maxMessageBytes);
        return ch;
    }

    private static byte[] drainOutbound(EmbeddedChannel ch) {
        ByteBuf all = Unpooled.buffer();
        for (Object o = ch.readOutbound(); o != null; o = ch.readOutbound()) {
            ByteBuf part = (ByteBuf) o;
            all.writeBytes(part);
            part.release();
        }
        byte[] bytes = ByteBufUtil.getBytes(all);
        all.release();
        return bytes;
    }

    @Test
    void shouldDecodeLengthPrefixedMessagesSplitAnywhereInTheStream() {
        EmbeddedChannel ch = tcp(StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        byte[] stream = new byte[2 * 4 + HELLO.length + ACK_REFUSED.length];
        System.arraycopy(lengthPrefixed(HELLO), 0, stream, 0, 4 + HELLO.length);
        System.arraycopy(lengthPrefixed(ACK_REFUSED), 0, stream, 4 + HELLO.length, 4 + ACK_REFUSED.length);
        // Split inside the first length prefix and inside the second message: TCP keeps no message boundaries.
        ch.writeInbound(Unpooled.wrappedBuffer(stream, 0, 2));
        assertNull(ch.readInbound(), "nothing before a whole message");
        ch.writeInbound(Unpooled.wrappedBuffer(stream, 2, 25));
        ch.writeInbound(Unpooled.wrappedBuffer(stream, 27, stream.length - 27));
        assertEquals(new HelloMessage(2, 1000, "0.1.0"), ch.readInbound());
        assertEquals(new AckMessage(43, false, "bad token"), ch.readInbound());
        assertNull(ch.readInbound());
    }

    @Test
    void shouldWriteSubscribeAndCommandWithTheLengthPrefix() {
        EmbeddedChannel ch = tcp(StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        ch.writeOutbound(new SubscribeMessage(60));
        assertArrayEquals(lengthPrefixed(SUBSCRIBE_60), drainOutbound(ch));
        ch.writeOutbound(new CommandMessage(1, "s3cret", new Command.Pause()));
        assertArrayEquals(lengthPrefixed(COMMAND_PAUSE), drainOutbound(ch));
    }

    @Test
    void shouldRaiseTheDecodersErrorForAMalformedMessage() {
        EmbeddedChannel ch = tcp(StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        byte[] version1 = HELLO.clone();
        version1[0] = 1; // version 1: not this client's
        DecoderException e = assertThrows(DecoderException.class,
            () -> ch.writeInbound(Unpooled.wrappedBuffer(lengthPrefixed(version1))));
        assertTrue(SessionHandler.malformed(e) instanceof StreamFormatException, e.toString());
        assertNull(ch.readInbound());
    }

    @Test
    void shouldRefuseALengthOverTheLimitBeforeReadingTheMessage() {
        EmbeddedChannel ch = tcp(1024);
        byte[] prefixOnly = {0x01, 0x04, 0x00, 0x00}; // 1025 bytes announced, none sent
        TooLongFrameException e = assertThrows(TooLongFrameException.class,
            () -> ch.writeInbound(Unpooled.wrappedBuffer(prefixOnly)));
        assertNotNull(SessionHandler.malformed(e));
    }

    @Test
    void shouldRefuseALengthBelowTheHeaderAsMalformed() {
        EmbeddedChannel ch = tcp(StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        DecoderException e = assertThrows(DecoderException.class,
            () -> ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {3, 0, 0, 0, 1, 1, 0})));
        assertNotNull(SessionHandler.malformed(e), e.toString());
    }

    @Test
    void shouldJoinAFragmentedBinaryWebSocketMessageAndDecodeJsonText() {
        EmbeddedChannel ch = new EmbeddedChannel();
        StreamClientInitializer.addWebSocketMessages(ch.pipeline(), StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        ch.writeInbound(new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(HELLO, 0, 6)));
        assertNull(ch.readInbound(), "nothing before the final fragment");
        ch.writeInbound(new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(HELLO, 6, HELLO.length - 6)));
        assertEquals(new HelloMessage(2, 1000, "0.1.0"), ch.readInbound());
        ch.writeInbound(new TextWebSocketFrame(
            "{\"type\":\"ACK\",\"commandId\":43,\"accepted\":false,\"reason\":\"bad token\"}"));
        assertEquals(new AckMessage(43, false, "bad token"), ch.readInbound());
    }

    @Test
    void shouldSendCommandsAsOneBinaryWebSocketMessage() {
        EmbeddedChannel ch = new EmbeddedChannel();
        StreamClientInitializer.addWebSocketMessages(ch.pipeline(), StreamProtocol.MAX_SERVER_MESSAGE_BYTES);
        ch.writeOutbound(new CommandMessage(1, "s3cret", new Command.Pause()));
        WebSocketFrame frame = ch.readOutbound();
        assertTrue(frame instanceof BinaryWebSocketFrame, String.valueOf(frame));
        assertTrue(frame.isFinalFragment());
        assertArrayEquals(COMMAND_PAUSE, ByteBufUtil.getBytes(frame.content()));
        frame.release();
    }

    @Test
    void shouldRefuseAWebSocketMessageOverTheLimit() {
        EmbeddedChannel ch = new EmbeddedChannel();
        StreamClientInitializer.addWebSocketMessages(ch.pipeline(), 8);
        ch.writeInbound(new BinaryWebSocketFrame(false, 0, Unpooled.wrappedBuffer(HELLO, 0, 6)));
        Exception e = assertThrows(Exception.class, () -> ch.writeInbound(
            new ContinuationWebSocketFrame(true, 0, Unpooled.wrappedBuffer(HELLO, 6, HELLO.length - 6))));
        assertNotNull(SessionHandler.malformed(e), e.toString());
    }

    /** A certificate without a path to a trusted one is named as such, with the JDK's words after it. */
    @Test
    void shouldNameAnUntrustedCertificateAsTheReason() {
        Exception untrusted = new SSLHandshakeException("PKIX path building failed");
        untrusted.initCause(new CertPathBuilderException("unable to find valid certification path to requested "
            + "target"));
        assertEquals(StreamClient.UNTRUSTED_CERTIFICATE + " (unable to find valid certification path to requested "
            + "target)", SessionHandler.describe(new DecoderException(untrusted)));
        assertEquals("Connection refused", SessionHandler.describe(new IOException("connect failed",
            new IOException("Connection refused"))), "no certificate in the chain: the innermost message");
    }

    /** Found by a tester: wss:// against a plain server printed Netty's hex dump of the server's HTTP answer. */
    @Test
    void shouldSayAServerAnsweredWithoutTls() {
        assertEquals("the server answered without TLS (a plain ws:// or tcp:// server): use ws://, or tcp:// without "
            + "--tls, or start the server with TLS", SessionHandler.describe(new DecoderException(
                new io.netty.handler.ssl.NotSslRecordException("not an SSL/TLS record: 485454502f312e31"))));
    }

    /**
     * A handshake cut short by the client's own close (watch at --seconds) failed because of that close: it said
     * "SSLEngine closed already", and watch printed that as why it never connected.
     */
    @Test
    void shouldCallAFailureAfterCloseClosedByClient() {
        StreamClient client = StreamClient.builder(URI.create("tcp://127.0.0.1:47399")).build();
        client.close();
        SessionHandler handler = new SessionHandler(client);
        EmbeddedChannel ch = new EmbeddedChannel(handler);
        ch.pipeline().fireExceptionCaught(new SSLException("SSLEngine closed already"));
        assertNull(handler.reason(), "channelInactive then says " + StreamClient.CLOSED_BY_CLIENT);
        assertFalse(ch.isOpen(), "closed all the same");
    }
}
