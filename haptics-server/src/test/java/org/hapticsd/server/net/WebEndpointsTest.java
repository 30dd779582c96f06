package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The web port's HTTP side besides the WebSocket: the page and three.js from the classpath with the content types
 * browsers need for ES modules, no path out of either folder, and the two JSON endpoints, in particular who is
 * handed the command token. Requests are written by hand on a socket, since java.net.http does not let a test set
 * the Host header a DNS-rebinding page would send.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebEndpointsTest {
    private static final long MS = 1_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Response(int status, Map<String, String> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        JsonNode json() throws IOException {
            return JSON.readTree(body);
        }
    }

    /** One GET on its own connection; headers given as name, value pairs (Host defaults to 127.0.0.1:port). */
    private static Response get(int port, String path, String... headers) throws IOException {
        return request(port, "GET", path, headers);
    }

    /** One request of {@code method} on its own connection, as {@link #get}. */
    private static Response request(int port, String method, String path, String... headers) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            StringBuilder request = new StringBuilder(method + " " + path + " HTTP/1.1\r\n");
            boolean host = false;
            for (int i = 0; i < headers.length; i += 2) {
                request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
                host |= headers[i].equalsIgnoreCase("Host");
            }
            if (!host) {
                request.append("Host: 127.0.0.1:").append(port).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return parse(socket.getInputStream().readAllBytes());
        }
    }

    private static Response parse(byte[] raw) {
        int end = 0;
        while (!(raw[end] == '\r' && raw[end + 1] == '\n' && raw[end + 2] == '\r' && raw[end + 3] == '\n')) {
            end++;
        }
        String[] lines = new String(raw, 0, end, StandardCharsets.US_ASCII).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new HashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(raw, end + 4, raw.length - end - 4);
        return new Response(status, headers, body.toByteArray());
    }

    private static StreamServer server(FakeLoop loop, StreamServerConfig config) throws IOException {
        return new StreamServer(config, loop.exchange, new TickFrames(8), new NoRequests(), null, MS).start();
    }

    @Test
    void shouldServeThePageAndThreeJsAsJavaScriptModulesWithoutAVersionInTheUrl() throws Exception {
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = server(loop, StreamServerConfig.defaults().withPorts(0, -1))) {
            int port = server.httpPort();
            Response page = get(port, "/");
            assertEquals(200, page.status());
            assertEquals("text/html; charset=utf-8", page.headers().get("content-type"));
            assertTrue(page.text().contains("\"three\": \"/webjars/three/build/three.module.js\""), page.text());

            Response app = get(port, "/js/app.js");
            assertEquals(200, app.status());
            assertEquals("text/javascript; charset=utf-8", app.headers().get("content-type"));

            Response three = get(port, "/webjars/three/build/three.module.js");
            assertEquals(200, three.status());
            assertEquals("text/javascript; charset=utf-8", three.headers().get("content-type"));
            assertEquals("nosniff", three.headers().get("x-content-type-options"));
            byte[] expected;
            try (InputStream in = getClass().getResourceAsStream("/META-INF/resources/webjars/three/"
                + WebResources.threeVersion() + "/build/three.module.js")) {
                expected = in.readAllBytes();
            }
            assertEquals(expected.length, three.body().length);
            // The WebJar's version is the validator: a browser that has it gets 304 and no body.
            String etag = three.headers().get("etag");
            assertEquals("\"three-" + WebResources.threeVersion() + "\"", etag);
            Response again = get(port, "/webjars/three/build/three.module.js", "If-None-Match", etag);
            assertEquals(304, again.status());
            assertEquals(0, again.body().length);

            assertEquals(200, get(port, "/webjars/three/examples/jsm/controls/OrbitControls.js").status());
        }
    }

    /** Found by a tester: HEAD got 405 on every path (curl -I), though HTTP expects it wherever GET works. */
    @Test
    void shouldAnswerHeadAsGetWithoutTheBodyAndNameTheAllowedMethods() throws Exception {
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = server(loop, StreamServerConfig.defaults().withPorts(0, -1))) {
            int port = server.httpPort();
            for (String path : List.of("/", "/api/status")) {
                Response got = get(port, path);
                Response head = request(port, "HEAD", path);
                assertEquals(200, head.status(), path);
                assertEquals(0, head.body().length, path);
                assertEquals(String.valueOf(got.body().length), head.headers().get("content-length"), path);
                assertEquals(got.headers().get("content-type"), head.headers().get("content-type"), path);
            }
            Response post = request(port, "POST", "/api/status");
            assertEquals(405, post.status());
            assertEquals("GET, HEAD", post.headers().get("allow"));
        }
    }

    @Test
    void shouldServeNothingOutsideThePageAndTheWebJar() throws Exception {
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = server(loop, StreamServerConfig.defaults().withPorts(0, -1))) {
            int port = server.httpPort();
            for (String path : List.of("/../pom.xml", "/webjars/three/../../../maven/org.webjars.npm/three/pom.xml",
                "/webjars/three/%2e%2e/LICENSE", "/js/", "/js",
                "/webjars/three/build/", "/org/hapticsd/server/net/StreamServer.class", "/META-INF/MANIFEST.MF",
                "/webjars/other/x.js", "/%2fetc%2fpasswd")) {
                assertEquals(404, get(port, path).status(), path);
            }
        }
    }

    @Test
    void shouldGiveTheTokenOnlyToAPageOfThisMachineOnLoopback() throws Exception {
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, -1);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config)) {
            int port = server.httpPort();
            Response own = get(port, "/api/session");
            assertEquals(200, own.status());
            assertEquals("application/json", own.headers().get("content-type"));
            assertEquals("no-store", own.headers().get("cache-control"));
            JsonNode session = own.json();
            assertTrue(session.get("tokenRequired").asBoolean());
            assertEquals(config.token(), session.get("token").asText());
            assertEquals(1000, session.get("loopRateHz").asInt());
            assertEquals("/ws", session.get("webSocketPath").asText());

            assertEquals(config.token(), get(port, "/api/session", "Host", "localhost:" + port,
                "Origin", "http://localhost:" + port).json().get("token").asText());
            assertEquals(config.token(), get(port, "/api/session", "Host", "[::1]:" + port).json()
                .get("token").asText());
            // A foreign page's request (its Origin), and a DNS-rebinding page (its own name as Host, though the
            // request reaches 127.0.0.1): no token.
            assertTrue(get(port, "/api/session", "Origin", "http://evil.example").json().get("token").isNull());
            assertTrue(get(port, "/api/session", "Host", "evil.example:" + port,
                "Origin", "http://evil.example:" + port).json().get("token").isNull());
            assertTrue(get(port, "/api/session", "Host", "127.0.0.1.evil.example:" + port).json()
                .get("token").isNull());
        }
    }

    /**
     * A browser does not let a page read why its WebSocket upgrade was refused: the page on a name that is not
     * loopback (a hosts-file alias of this machine) showed only "disconnected, retrying". {@code /api/session} says
     * why, and what to do, for the host name the page was loaded by.
     */
    @Test
    void shouldTellAPageOnANameThatIsNotLoopbackWhyItCannotStream() throws Exception {
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, -1);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config)) {
            int port = server.httpPort();
            assertTrue(get(port, "/api/session").json().get("streamRefused").isNull());
            assertTrue(get(port, "/api/session", "Host", "localhost:" + port).json().get("streamRefused").isNull());
            assertEquals("host workbench.lan:" + port + " is not a loopback name; this server listens on loopback "
                + "only: open the page as http://127.0.0.1:" + port + "/ or http://localhost:" + port + "/, or start "
                + "hapticsd with --allow-origin http://workbench.lan:" + port,
                get(port, "/api/session", "Host", "workbench.lan:" + port).json().get("streamRefused").asText());
        }
        StreamServerConfig allowed = config.withAllowedOrigins(List.of("http://workbench.lan:8080"));
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, allowed)) {
            assertTrue(get(server.httpPort(), "/api/session", "Host", "workbench.lan:8080").json()
                .get("streamRefused").isNull());
        }
        StreamServerConfig everywhere = config.withBind("0.0.0.0", "correct-horse-battery");
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, everywhere)) {
            assertTrue(get(server.httpPort(), "/api/session", "Host", "workbench.lan:8080").json()
                .get("streamRefused").isNull());
        }
    }

    @Test
    void shouldRefuseAWebSocketFromARebindingPageOnLoopback() throws Exception {
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, -1);
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config)) {
            int port = server.httpPort();
            String[] upgrade = {"Upgrade", "websocket", "Connection", "Upgrade", "Sec-WebSocket-Version", "13",
                "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="};
            // Origin equals Host, as for any page on its own name, but the name is not loopback: refused.
            Response rebinding = get(port, "/ws", concat(upgrade, "Host", "evil.example:" + port,
                "Origin", "http://evil.example:" + port));
            assertEquals(403, rebinding.status());
            assertTrue(rebinding.text().contains("not a loopback name"), rebinding.text());
            // The server's own page on a loopback name upgrades (then streams: read the status line only).
            try (Socket socket = new Socket("127.0.0.1", port)) {
                socket.setSoTimeout(10_000);
                StringBuilder request = new StringBuilder("GET /ws HTTP/1.1\r\n");
                String[] headers = concat(upgrade, "Host", "localhost:" + port, "Origin", "http://localhost:" + port);
                for (int i = 0; i < headers.length; i += 2) {
                    request.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
                }
                socket.getOutputStream().write(request.append("\r\n").toString()
                    .getBytes(StandardCharsets.US_ASCII));
                byte[] statusLine = socket.getInputStream().readNBytes(12);
                assertEquals("HTTP/1.1 101", new String(statusLine, StandardCharsets.US_ASCII));
            }
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void shouldNeverGiveTheTokenOffLoopback() throws Exception {
        StreamServerConfig config = StreamServerConfig.defaults().withPorts(0, -1)
            .withBind("0.0.0.0", "correct-horse-battery");
        try (FakeLoop loop = new FakeLoop(); StreamServer server = server(loop, config)) {
            JsonNode session = get(server.httpPort(), "/api/session").json();
            assertTrue(session.get("tokenRequired").asBoolean());
            assertTrue(session.get("token").isNull(), session.toString());
        }
    }

    /**
     * {@code /api/parameters} carries the executor's table as the page reads it: every field of each parameter, an
     * open upper end as null, the unit from the name; {@code /api/scenes} its scene names, {@code /api/warnings} the
     * scene's build warnings; and all empty from a gate with no scene commands.
     */
    @Test
    void shouldListTheParametersScenesAndWarningsOfTheCommands() throws Exception {
        ParameterTable table = new ParameterTable(7, List.of(
            new SettableParameter("contact.dampingNspm", 0.25, 0.5, 0.0, true, 0.5, false, "soften only"),
            new SettableParameter("bodies.pad.texture.periodM", 0.009, 0.006, 0.0085, true, Double.POSITIVE_INFINITY,
                false, "grating"),
            new SettableParameter("hand.buttons", 1.0, 0.0, 0.0, true, 65535.0, true, "mask")));
        CommandExecutor executor = new CommandExecutor() {
            @Override
            public java.util.concurrent.CompletionStage<String> execute(org.hapticsd.protocol.stream.Command c) {
                return java.util.concurrent.CompletableFuture.completedFuture("UNSUPPORTED: not in this test");
            }

            @Override
            public ParameterTable parameters() {
                return table;
            }

            @Override
            public SceneCatalog scenes() {
                return new SceneCatalog(true, List.of("pen", "wall"));
            }

            @Override
            public SceneWarnings warnings() {
                return new SceneWarnings(7, List.of("scene 'pen': too stiff"));
            }
        };
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = new StreamServer(StreamServerConfig.defaults().withPorts(0, -1), loop.exchange,
                 new TickFrames(8), new CommandGate("t", executor), null, MS).start()) {
            Response answer = get(server.httpPort(), "/api/parameters");
            assertEquals(200, answer.status());
            assertEquals("application/json", answer.headers().get("content-type"));
            assertEquals("no-store", answer.headers().get("cache-control"));
            assertEquals(JSON.readTree("""
                {"sceneRevision": 7, "parameters": [
                  {"name": "contact.dampingNspm", "unit": "N·s/m", "value": 0.25, "loaded": 0.5, "min": 0.0,
                   "minIncluded": true, "max": 0.5, "wholeNumber": false, "limits": "soften only"},
                  {"name": "bodies.pad.texture.periodM", "unit": "m", "value": 0.009, "loaded": 0.006,
                   "min": 0.0085, "minIncluded": true, "max": null, "wholeNumber": false, "limits": "grating"},
                  {"name": "hand.buttons", "unit": "", "value": 1.0, "loaded": 0.0, "min": 0.0, "minIncluded": true,
                   "max": 65535.0, "wholeNumber": true, "limits": "mask"}]}
                """), answer.json());
            assertEquals(JSON.readTree("{\"loading\": true, \"scenes\": [\"pen\", \"wall\"]}"),
                get(server.httpPort(), "/api/scenes").json());
            assertEquals(JSON.readTree("{\"sceneRevision\": 7, \"warnings\": [\"scene 'pen': too stiff\"]}"),
                get(server.httpPort(), "/api/warnings").json());
        }
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = server(loop, StreamServerConfig.defaults().withPorts(0, -1))) {
            assertEquals(JSON.readTree("{\"sceneRevision\": 0, \"parameters\": []}"),
                get(server.httpPort(), "/api/parameters").json());
            assertEquals(JSON.readTree("{\"loading\": false, \"scenes\": []}"),
                get(server.httpPort(), "/api/scenes").json());
            assertEquals(JSON.readTree("{\"sceneRevision\": 0, \"warnings\": []}"),
                get(server.httpPort(), "/api/warnings").json());
        }
    }

    @Test
    void shouldReportConnectionCountsInStatus() throws Exception {
        try (FakeLoop loop = new FakeLoop();
             StreamServer server = server(loop, StreamServerConfig.defaults().withPorts(0, 0));
             Socket tcp = new Socket("127.0.0.1", server.tcpPort())) {
            tcp.getInputStream().read();
            Response status = get(server.httpPort(), "/api/status");
            assertEquals("no-store", status.headers().get("cache-control"));
            JsonNode json = status.json();
            // The TCP client and the status request's own connection.
            assertEquals(2, json.get("clients").asInt(), json.toString());
            assertEquals(0, json.get("refusedConnections").asInt());
            assertEquals(0, json.get("clientErrors").asInt());
        }
    }

    @Test
    void shouldRecogniseLoopbackHostsByLiteralOnly() {
        for (String host : List.of("127.0.0.1:8080", "127.0.0.1", "localhost:8080", "LOCALHOST", "[::1]:8080",
            "127.1.2.3:80")) {
            assertTrue(HttpRequestHandler.isLoopbackHost(host), host);
        }
        for (String host : List.of("evil.example:8080", "127.0.0.1.nip.io:8080", "192.168.1.10:8080", "[::1",
            "[2001:db8::1]:8080", "")) {
            assertFalse(HttpRequestHandler.isLoopbackHost(host), host);
        }
    }
}
