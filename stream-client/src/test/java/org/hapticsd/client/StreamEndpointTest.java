package org.hapticsd.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.junit.jupiter.api.Test;

class StreamEndpointTest {
    @Test
    void shouldFillInTheWebSocketPathAndKeepTheQuery() {
        StreamEndpoint e = StreamEndpoint.parse(URI.create("ws://127.0.0.1:8080?format=json&rate=30"));
        assertTrue(e.webSocket());
        assertFalse(e.tls());
        assertEquals("127.0.0.1", e.host());
        assertEquals(8080, e.port());
        assertEquals(URI.create("ws://127.0.0.1:8080/ws?format=json&rate=30"), e.uri());
        assertTrue(e.json());
        assertEquals(StreamJson.MAX_SERVER_JSON_BYTES, e.defaultMaxMessageBytes());
    }

    @Test
    void shouldUseTlsAndPort443ForWss() {
        StreamEndpoint e = StreamEndpoint.parse(URI.create("wss://viewer.lab/ws"));
        assertTrue(e.tls());
        assertEquals(443, e.port());
        assertFalse(e.json());
        assertEquals(StreamProtocol.MAX_SERVER_MESSAGE_BYTES, e.defaultMaxMessageBytes());
    }

    @Test
    void shouldParseTcpWithAnIpv6Host() {
        StreamEndpoint e = StreamEndpoint.parse(URI.create("tcp://[::1]:8081"));
        assertFalse(e.webSocket());
        assertEquals("::1", e.host());
        assertEquals(8081, e.port());
    }

    @Test
    void shouldNameWhatIsWrongWithABadUrl() {
        assertMessage("http://127.0.0.1:8080/ws", "scheme must be ws, wss or tcp, not http");
        assertMessage("//127.0.0.1:8080/ws", "scheme must be ws, wss or tcp");
        assertMessage("tcp://127.0.0.1", "tcp needs a port");
        assertMessage("tcp://127.0.0.1:8081/ws", "tcp takes no path or query");
        assertMessage("ws:///ws", "no host");
        assertMessage("ws://user@127.0.0.1:8080/ws", "user information");
    }

    private static void assertMessage(String url, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> StreamEndpoint.parse(URI.create(url)));
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
        assertTrue(e.getMessage().contains(url), "names the URL: " + e.getMessage());
    }
}
