package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.hapticsd.server.LiveServer;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.net.StreamServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hapticsd send} against the real loop (default wall scene, simulated stylus) and stream server in this
 * process, on 127.0.0.1: an accepted command exits 0 once its change is in force, a refused one exits 1 with the
 * server's reason, a server that is not there exits 1, and a malformed command line exits 2 naming what is wrong.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SendCommandTest {
    private static final String TOKEN = "send-test-token";

    @TempDir
    Path dir;

    private LiveServer live;
    private LoopAssembly assembly;
    private String url;

    @BeforeEach
    void start() throws Exception {
        live = LiveServer.startEmbedded(StreamServerConfig.defaults().withPorts(0, 0)
            .withBind(StreamServerConfig.LOOPBACK, TOKEN), dir);
        assembly = live.assembly();
        url = live.webSocketUrl();
    }

    @AfterEach
    void stop() {
        live.close();
    }

    @Test
    void shouldPauseAndSetAParameterAndSayWhenTheServerRefuses() throws Exception {
        CliCall pause = CliCall.run("send", "--url", url, "--token", TOKEN, "pause");
        assertEquals(Main.EXIT_OK, pause.exitCode(), pause.toString());
        assertTrue(pause.out().contains("PAUSE: accepted"), pause.toString());
        assertTrue(assembly.loop().paused(), "the ACK came once the loop had paused");

        CliCall soften = CliCall.run("send", "--url", url, "--token", TOKEN, "set", "contact.stiffnessNpm", "400");
        assertEquals(Main.EXIT_OK, soften.exitCode(), soften.toString());
        assertTrue(soften.out().contains("SET_PARAMETER contact.stiffnessNpm = 400.0: accepted"), soften.toString());
        assertEquals(400.0, assembly.loop().world().contactSettings().penalty().stiffnessNpm(), 0.0);

        CliCall stiffer = CliCall.run("send", "--url", url, "--token", TOKEN, "set", "contact.stiffnessNpm", "5000");
        assertEquals(Main.EXIT_FAILURE, stiffer.exitCode(), stiffer.toString());
        assertTrue(stiffer.err().contains("hapticsd: send: SET_PARAMETER contact.stiffnessNpm = 5000.0 refused: "
            + "OUT_OF_LIMITS"), stiffer.toString());

        CliCall wrongToken = CliCall.run("send", "--url", url, "--token", "not-the-token", "resume");
        assertEquals(Main.EXIT_FAILURE, wrongToken.exitCode(), wrongToken.toString());
        assertTrue(wrongToken.err().contains("RESUME refused"), wrongToken.toString());
        assertTrue(assembly.loop().paused(), "still paused");

        CliCall resume = CliCall.run("send", "--url", url, "--token", TOKEN, "resume");
        assertEquals(Main.EXIT_OK, resume.exitCode(), resume.toString());
        assertTrue(!assembly.loop().paused(), "resumed");
    }

    /**
     * {@code send parameters}: one line a parameter of the default wall, with the value set a moment before; the
     * server's JSON with {@code --json}; exit 2 for a {@code tcp://} URL, which names no web port.
     */
    @Test
    void shouldListTheParametersSetTakesWithTheirValuesAndRanges() throws Exception {
        CliCall soften = CliCall.run("send", "--url", url, "--token", TOKEN, "set", "contact.stiffnessNpm", "400");
        assertEquals(Main.EXIT_OK, soften.exitCode(), soften.toString());

        CliCall list = CliCall.run("send", "--url", url, "parameters");
        assertEquals(Main.EXIT_OK, list.exitCode(), list.toString());
        java.util.List<String> lines = list.out().lines().toList();
        assertEquals("scene revision 1: 4 parameter(s) for set NAME VALUE", lines.get(0), list.toString());
        assertEquals(java.util.List.of(
                "render.forceScale     1                 [0, 1]                        1",
                "contact.stiffnessNpm  400 N/m           (0, 1000] N/m                 1000",
                "contact.dampingNspm   0.2 N·s/m         [0, 0.2] N·s/m                0.2",
                "hand.buttons          0                 [0, 65535], whole             0"),
            lines.subList(2, 6), list.toString());

        CliCall json = CliCall.run("send", "--url", url, "parameters", "--json");
        assertEquals(Main.EXIT_OK, json.exitCode(), json.toString());
        com.fasterxml.jackson.databind.JsonNode table = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(json.out());
        assertEquals(400.0, table.get("parameters").get(1).get("value").asDouble(), 0.0, json.toString());

        CliCall tcp = CliCall.run("send", "--url", "tcp://127.0.0.1:" + live.server().tcpPort(), "parameters");
        assertEquals(Main.EXIT_USAGE, tcp.exitCode(), tcp.toString());
        assertTrue(tcp.err().contains("parameters reads the web port: give --url ws://HOST:PORT/ws"), tcp.toString());
    }

    @Test
    void shouldExitOneWhenNoServerAnswersAndTwoForAMalformedCommandLine() throws Exception {
        CliCall nobody = CliCall.run("send", "--url", "ws://127.0.0.1:1/ws", "--timeout", "2", "pause");
        assertEquals(Main.EXIT_FAILURE, nobody.exitCode(), nobody.toString());
        assertTrue(nobody.err().contains("hapticsd: send: could not connect to ws://127.0.0.1:1/ws"),
            nobody.toString());

        for (String[] line : new String[][] {{"send", "jump"}, {"send", "set", "contact.stiffnessNpm"},
                {"send", "set", "contact.stiffnessNpm", "soft"}, {"send", "pause", "now"},
                {"send", "--url", "nonsense url", "pause"}, {"send", "--timeout", "0", "pause"}}) {
            CliCall call = CliCall.run(line);
            assertEquals(Main.EXIT_USAGE, call.exitCode(), call.toString());
            assertTrue(call.err().lines().count() <= 3 && !call.err().contains("Exception"), call.toString());
        }
        CliCall jump = CliCall.run("send", "jump");
        assertTrue(jump.err().contains("unknown action 'jump': one of pause, resume"), jump.toString());
    }
}
