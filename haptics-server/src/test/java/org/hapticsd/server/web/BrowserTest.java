package org.hapticsd.server.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.LiveServer;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.SceneFileWatcher;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamServerConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web visualizer in a real headless Chromium (WebGL on SwiftShader) against a real loop and stream server
 * in-process, with the simulated stylus hanging 1 cm above a floor (test scene {@code scenes/browser-floor.yaml}).
 * The page is driven the way a user drives it: it loads three.js from the server's WebJar, draws the scene, shows
 * ticks advancing, and a WebDriver mouse drag on the tool pushes the hand into the floor, after which the page
 * shows the force the floor pushes back with. Screenshots go to {@code target/browser/}.
 *
 * <p>Without /usr/bin/chromium and /usr/bin/chromedriver the tests fail under CI (the environment variable CI set)
 * and are skipped elsewhere.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrowserTest {
    private static final Path OUT = Path.of("target", "browser");
    private static final int WIDTH = 1280;
    private static final int HEIGHT = 800;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The scene's springs: hand 200 N/m and floor contact 1000 N/m, in series when the tool rests on the floor. */
    private static final double HAND_NPM = 200.0;
    private static final double FLOOR_NPM = 1000.0;
    private static final double SERIES_NPM = HAND_NPM * FLOOR_NPM / (HAND_NPM + FLOOR_NPM);
    /** The tool centre touches the floor (top at z = -0.015) at z = -0.015 + 0.005 (the tool radius). */
    private static final double TOUCH_Z_M = -0.010;
    /** The scene's bodies, every one drawn: floor, crate, block, ball, pill, wedge, tent. */
    private static final int BODIES = 7;
    private static final int CLEAR_RGB = 0x1b1f24;

    private static ChromiumSession browser;
    private Path scenePath;
    /** The scene directory LOAD_SCENE may load from, or null to refuse it (as {@code run} without --scene-dir). */
    private Path sceneDir;
    private LoopAssembly assembly;
    private LiveServer live;
    private StreamServer server;

    @BeforeAll
    static void openBrowser() throws Exception {
        String missing = ChromiumSession.missingBrowser();
        if (missing != null) {
            if (System.getenv("CI") != null) {
                fail(missing);
            }
            Assumptions.abort(missing + "; skipped outside CI");
        }
        browser = ChromiumSession.start(OUT, WIDTH, HEIGHT);
    }

    @AfterAll
    static void closeBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void startServer() throws Exception {
        start(Path.of(BrowserTest.class.getResource("/scenes/browser-floor.yaml").toURI()));
    }

    /** The loop on {@code scene} and its stream service, as {@code run} starts them (no TCP port). */
    private void start(Path scene) throws Exception {
        scenePath = scene;
        live = LiveServer.start(scene, StreamServerConfig.defaults().withPorts(0, -1), sceneDir);
        assembly = live.assembly();
        server = live.server();
    }

    /** Stops the test's server and loop and starts them again on another scene. */
    private void restartWith(Path scene) throws Exception {
        stopServer();
        start(scene);
    }

    @AfterEach
    void stopServer() {
        if (live != null) {
            live.close();
        }
    }

    @Test
    void shouldDrawTheSceneAndShowTheFloorPushingBackWhenTheToolIsDraggedIntoIt() throws Exception {
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.bodiesDrawn === " + BODIES + " && hook.statesReceived >= 10 && hook.framesRendered >= 10",
            Duration.ofSeconds(30), "the scene drawn and states arriving");
        assertTrue(number("hook.triangles") > 100, "WebGL draws the bodies' triangles: " + number("hook.triangles"));

        long tick = (long) number("Number(document.getElementById('status').dataset.tick)");
        await("Number(document.getElementById('status').dataset.tick) > " + tick, Duration.ofSeconds(5),
            "the status panel's tick advancing past " + tick);
        assertEquals("connected", text("document.getElementById('status').dataset.connection"));

        // The start-up gate opens after 50 quiet ticks, then the output ramps up over 1 s.
        await("hook.safetyState === 'ACTIVE'", Duration.ofSeconds(10), "safety ACTIVE");
        // The tool hangs 1 cm above the floor and touches nothing: no contact, so exactly no rendered force. (The
        // crate resting on the floor has contacts of its own, which the page counts apart.)
        assertEquals(0, (int) number("hook.toolContacts"), state());
        assertEquals(0.0, number("hook.lastForceN"), 1e-6, state());

        JsonNode tool = browser.execute("return window.hapticsd.toolPositionM;");
        JsonNode from = browser.execute("return window.hapticsd.toolScreen();");
        // A screen point 5 cm below the tool: the page projects it onto the plane through the tool facing the
        // camera, which puts the hand cos²(camera elevation) of that below the tool, well under the floor.
        JsonNode to = browser.execute("return window.hapticsd.screenOf(arguments[0]);",
            new double[] {tool.get(0).asDouble(), tool.get(1).asDouble(), tool.get(2).asDouble() - 0.05});
        drag(from, to);

        await("hook.moveHandSent > 0 && hook.moveHandAccepted + hook.moveHandRefused === hook.moveHandSent",
            Duration.ofSeconds(5), "every MOVE_HAND acknowledged");
        assertEquals(0, (int) number("hook.moveHandRefused"),
            "MOVE_HAND refused: " + text("String(hook.lastMoveHandRefusal)"));
        JsonNode hand = browser.execute("return window.hapticsd.handTargetM;");
        double handZ = hand.get(2).asDouble();
        double expectedN = SERIES_NPM * (TOUCH_Z_M - handZ);
        // The drag must have put the hand well into the floor, or the force below would prove little.
        assertTrue(expectedN >= 2.0, "hand target " + hand + " gives only " + expectedN + " N");

        double forceN = awaitSteadyForce();
        // At rest the dampers carry nothing and the safety layer (ACTIVE, clamp 8 N) passes the rendered force to
        // the stylus unchanged, so hand spring and floor spring balance exactly: F = k_h·k_c/(k_h+k_c)·depth of the
        // hand below the touching height. 3 % + 0.05 N covers float32 on the wire and the settling the steadiness
        // check below allows; a wrong drag plane, frame or sign misses by far more.
        assertEquals(expectedN, forceN, 0.03 * expectedN + 0.05, state());
        // The tool's penetration into the floor is F / k_c (the same 3 % + 0.05 N, over k_c), as the page plots it.
        assertEquals(forceN / FLOOR_NPM, number("hook.toolDepthM"), (0.03 * forceN + 0.05) / FLOOR_NPM, state());
        assertEquals(1, (int) number("hook.toolContacts"), state());

        BufferedImage shot = saveScreenshot("visualizer.png");
        assertDrawn(shot);
    }

    @Test
    void shouldCarryOutItsButtonsWithTheSessionTokenAndShowEachAck() throws Exception {
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 5 && hook.safetyState === 'ACTIVE'", Duration.ofSeconds(30), "safety ACTIVE");

        clickAndAwaitAck("#estop", "EMERGENCY_STOP");
        await("hook.safetyState === 'ESTOP' && document.getElementById('st-safety').textContent.startsWith('ESTOP')",
            Duration.ofSeconds(5), "ESTOP shown");
        clickAndAwaitAck("#reset-stop", "RESET_STOP");
        await("hook.safetyState !== 'ESTOP'", Duration.ofSeconds(5), "ESTOP cleared");

        clickAndAwaitAck("button[data-command='PAUSE']", "PAUSE");
        await("hook.paused && document.getElementById('st-paused').textContent === 'paused'", Duration.ofSeconds(5),
            "paused shown");
        long pausedAt = (long) number("hook.tick");
        clickAndAwaitAck("button[data-command='RESUME']", "RESUME");
        await("!hook.paused && hook.tick > " + pausedAt, Duration.ofSeconds(5), "running again");

        // RESET_SCENE: a new SCENE revision, drawn again from scratch with all its bodies.
        int revision = (int) number("hook.sceneRevision");
        clickAndAwaitAck("button[data-command='RESET_SCENE']", "RESET_SCENE");
        await("hook.sceneRevision === " + (revision + 1) + " && hook.bodiesDrawn === " + BODIES,
            Duration.ofSeconds(10), "the reset scene drawn");
        long ticks = (long) number("hook.statesReceived");
        await("hook.statesReceived > " + ticks, Duration.ofSeconds(5), "states of the new revision");
    }

    /**
     * The page's parameter panel offers what SET_PARAMETER accepts for the scene (browser-floor.yaml: no coupling, no
     * material effects; the buttons have their own toggle) with the server's limits. A typed stiffness reaches the
     * loop's world; one above the file's is refused and the row shows why; a click in the middle of the force scale's
     * slider sets about half; RESET_SCENE brings back the file's stiffness and keeps the force scale (the loop's).
     */
    @Test
    void shouldSetParametersFromThePanelWithinTheServersLimits() throws Exception {
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 5 && hook.parametersLoaded >= 1", Duration.ofSeconds(30), "parameters listed");
        assertEquals("render.forceScale,contact.stiffnessNpm,contact.dampingNspm", text("hook.parameterNames.join()"));
        String stiffness = "#parameters [data-name='contact.stiffnessNpm'] ";
        assertEquals("(0, 1000] N/m; scene file 1000", text(row(stiffness) + ".querySelector('.param-note')"
            + ".textContent"));

        browser.type(browser.findElement(stiffness + "input[type=number]"), "400");
        browser.click(browser.findElement(stiffness + "button"));
        await("hook.parametersAccepted === 1 && hook.parameterValue('contact.stiffnessNpm') === 400",
            Duration.ofSeconds(10), "the stiffness set");
        assertEquals(400.0, assembly.loop().world().contactSettings().penalty().stiffnessNpm(), 0.0);
        assertEquals("400", text(row(stiffness) + ".querySelector('input[type=number]').value"));

        browser.type(browser.findElement(stiffness + "input[type=number]"), "5000");
        browser.click(browser.findElement(stiffness + "button"));
        await("hook.parametersRefused === 1", Duration.ofSeconds(10), "the stiffer value refused");
        String refusal = text("hook.lastParameterRefusal");
        assertTrue(refusal.startsWith("OUT_OF_LIMITS: contact.stiffnessNpm = 5000.0 is outside the local limits (0, "
            + "1000.0]"), refusal);
        await(row(stiffness) + ".querySelector('.param-note').textContent.startsWith('OUT_OF_LIMITS') && "
            + row(stiffness) + ".querySelector('input[type=number]').value === '400'", Duration.ofSeconds(5),
            "the refusal on the row, the value as it stays");
        assertEquals(400.0, assembly.loop().world().contactSettings().penalty().stiffnessNpm(), 0.0);

        // A click on a slider moves it to the click, the middle here: [0, 1] in 200 steps of 0.005, so 0.5 give or
        // take the steps a pixel of the slider's width spans.
        browser.click(browser.findElement("#parameters [data-name='render.forceScale'] input[type=range]"));
        await("hook.parametersAccepted === 2", Duration.ofSeconds(10), "the force scale set");
        assertEquals(0.5, number("hook.parameterValue('render.forceScale')"), 0.02);

        int revision = (int) number("hook.sceneRevision");
        clickAndAwaitAck("button[data-command='RESET_SCENE']", "RESET_SCENE");
        await("hook.sceneRevision === " + (revision + 1) + " && hook.parameterValue('contact.stiffnessNpm') === 1000",
            Duration.ofSeconds(10), "the file's stiffness listed again");
        assertEquals(0.5, number("hook.parameterValue('render.forceScale')"), 0.02);

        // Found by a tester: a value set by another client (its ACK goes to that client only) stayed stale on the
        // page. The page reads the values every second.
        assertEquals(null, live.service().commands().execute(new org.hapticsd.protocol.stream.Command.SetParameter(
            "contact.stiffnessNpm", 650.0)).toCompletableFuture().get(10, java.util.concurrent.TimeUnit.SECONDS));
        await("hook.parameterValue('contact.stiffnessNpm') === 650 && " + row(stiffness)
            + ".querySelector('input[type=number]').value === '650'", Duration.ofSeconds(5),
            "another client's value shown within the page's poll");
        assertEquals(0, (int) number("hook.errors.length"), state());
        browser.execute("document.getElementById('parameters').scrollIntoView();");
        saveScreenshot("parameters.png");
    }

    /**
     * With a scene directory, the page offers its scenes (the test scenes' folder) in a menu; choosing one and
     * pressing Load scene loads it (LOAD_SCENE), and the page draws the new scene as the next revision.
     */
    @Test
    void shouldLoadASceneOfTheSceneDirectoryFromItsMenu() throws Exception {
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 5 && hook.scenesListed !== null", Duration.ofSeconds(30), "the scene list read");
        assertEquals("true", text("document.getElementById('scene-loader').hidden"), "no --scene-dir, no menu");

        sceneDir = scenePath.getParent();
        restartWith(scenePath);
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 5 && hook.scenesListed !== null && hook.scenesListed.length > 0",
            Duration.ofSeconds(30), "the scene menu");
        List<String> files;
        try (java.util.stream.Stream<Path> list = Files.list(sceneDir)) {
            files = list.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".yaml"))
                .map(name -> name.substring(0, name.length() - ".yaml".length())).sorted().toList();
        }
        assertEquals(String.join(",", files), text("hook.scenesListed.join()"));
        assertEquals("false", text("document.getElementById('scene-loader').hidden"));

        int revision = (int) number("hook.sceneRevision");
        browser.click(browser.findElement("#scene-select option[value='browser-grab']"));
        browser.click(browser.findElement("#load-scene"));
        await("document.getElementById('acks').dataset.last === 'LOAD_SCENE browser-grab: accepted'",
            Duration.ofSeconds(10), "LOAD_SCENE acknowledged as accepted");
        await("hook.sceneName === 'browser-grab' && hook.sceneRevision === " + (revision + 1)
            + " && hook.bodiesDrawn === 2", Duration.ofSeconds(10), "the loaded scene drawn");
        await("hook.sceneWarnings !== null", Duration.ofSeconds(10), "its warnings read");
        assertEquals(0, (int) number("hook.sceneWarnings.length"), state());
        assertEquals("true", text("document.getElementById('scene-warnings').hidden"));

        // A scene the stylus cannot render passively: the server's two warnings are shown under the status.
        browser.click(browser.findElement("#scene-select option[value='browser-stiff']"));
        browser.click(browser.findElement("#load-scene"));
        await("hook.sceneName === 'browser-stiff' && hook.sceneWarnings !== null && hook.sceneWarnings.length === 2",
            Duration.ofSeconds(10), "the stiff scene's warnings");
        assertEquals("false", text("document.getElementById('scene-warnings').hidden"));
        assertTrue(text("document.getElementById('scene-warnings').textContent").contains("the tool's penalty "
            + "contacts are not passive on device 'simulated stylus'"), state());
        assertEquals(0, (int) number("hook.errors.length"), state());
    }

    /**
     * {@code run --reload} seen from the page: a save of the scene file that does not build is shown under the status
     * (the page polls /api/warnings each second) while the scene before it runs on; a save that builds is drawn as the
     * next revision, and the warning goes.
     */
    @Test
    void shouldShowASaveOfTheSceneFileThatDoesNotBuildUntilOneDoes(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("browser-floor.yaml");
        String floor = Files.readString(scenePath);
        Files.writeString(file, floor);
        Files.copy(scenePath.resolveSibling("tent.obj"), dir.resolve("tent.obj"));
        restartWith(file);
        try (SceneFileWatcher watcher = SceneFileWatcher.start(file, live.service().commands()::reloadFirstScene)) {
            browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
            await("hook.statesReceived >= 5 && hook.sceneWarnings !== null && hook.sceneWarnings.length === 0",
                Duration.ofSeconds(30), "the scene drawn, no warnings");

            Files.writeString(file, floor.replace("stiffnessNpm: 1000.0", "stiffnessNpm: firm"));
            await("hook.sceneWarnings !== null && hook.sceneWarnings.length === 1 && !document.getElementById("
                + "'scene-warnings').hidden", Duration.ofSeconds(15), "the failed save shown");
            assertTrue(text("hook.sceneWarnings[0]").startsWith("the scene file was saved but does not build, so the "
                + "scene before it still runs: SCENE: " + file + ":"), state());
            assertEquals(1, (int) number("hook.sceneRevision"), "the scene before it runs on");

            Files.writeString(file, floor.replace("stiffnessNpm: 1000.0", "stiffnessNpm: 800.0"));
            await("hook.sceneRevision === 2 && hook.sceneWarnings !== null && hook.sceneWarnings.length === 0 && "
                + "document.getElementById('scene-warnings').hidden", Duration.ofSeconds(15),
                "the saved scene drawn, the warning gone");
            assertEquals(800.0, assembly.loop().world().contactSettings().penalty().stiffnessNpm(), 0.0);
        }
    }

    private static String row(String selector) {
        return "document.querySelector(\"" + selector.trim() + "\")";
    }

    /**
     * The page's "Press button 1" holds the simulated stylus's first button (SET_PARAMETER hand.buttons), which takes
     * the 150 g cube the tool rests above (test scene browser-grab.yaml); a drag of the tool upward then lifts it and
     * the hand holds its weight, 1.47 N; a second click lets go and the force falls to zero.
     */
    @Test
    void shouldGrabACubeWithThePagesButtonAndLiftItByDraggingTheTool() throws Exception {
        restartWith(Path.of(BrowserTest.class.getResource("/scenes/browser-grab.yaml").toURI()));
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 5 && hook.safetyState === 'ACTIVE'", Duration.ofSeconds(30), "safety ACTIVE");
        assertEquals(0.0, number("hook.lastForceN"), 1e-6, "nothing held, nothing touched: " + state());

        browser.click(browser.findElement("#grab"));
        await("hook.buttonsAccepted === 1", Duration.ofSeconds(10), "the button press acknowledged");
        assertEquals("true", text("document.getElementById('grab').getAttribute('aria-pressed')"));
        assertEquals(1, ((SimulatedDevice) assembly.loop().device()).buttons(), "the stylus's button is down");

        JsonNode tool = browser.execute("return window.hapticsd.toolPositionM;");
        JsonNode from = browser.execute("return window.hapticsd.toolScreen();");
        JsonNode to = browser.execute("return window.hapticsd.screenOf(arguments[0]);",
            new double[] {tool.get(0).asDouble(), tool.get(1).asDouble(), tool.get(2).asDouble() + 0.05});
        drag(from, to);
        await("hook.moveHandSent > 0 && hook.moveHandAccepted === hook.moveHandSent", Duration.ofSeconds(5),
            "every MOVE_HAND accepted");
        // Held still, the cube hangs on the grab's spring: the hand feels its weight (float32 on the wire, and the
        // 0.02 N of settling awaitSteadyForce allows).
        assertEquals(0.15 * 9.81, awaitSteadyForce(), 0.05, state());
        JsonNode lifted = browser.execute("return window.hapticsd.toolPositionM;");
        assertTrue(lifted.get(2).asDouble() > tool.get(2).asDouble() + 0.02, "the tool went up: " + lifted);

        browser.click(browser.findElement("#grab"));
        await("hook.buttonsAccepted === 2 && hook.lastForceN === 0", Duration.ofSeconds(10), "let go: no force");
        assertEquals(0, ((SimulatedDevice) assembly.loop().device()).buttons(), "the button is up");
        assertEquals(0, (int) number("hook.errors.length"), state());
    }

    @Test
    void shouldDrawADeformableClothAsItFallsOnABall() throws Exception {
        // A 6 × 6 cloth pinned at two corners drapes over a ball (test scene browser-cloth.yaml).
        restartWith(Path.of(BrowserTest.class.getResource("/scenes/browser-cloth.yaml").toURI()));
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.bodiesDrawn === 2 && hook.deformableUpdates >= 20 && hook.framesRendered >= 20",
            Duration.ofSeconds(30), "the ball and the cloth drawn, its nodes updated");
        // The free corner (row 5, column 5: node 35) starts at z = 0 and hangs below its pins once the cloth has
        // fallen; the page draws it where the STATEs put it.
        await("hook.deformableNode('cloth', 35) !== null && hook.deformableNode('cloth', 35)[2] < -0.03",
            Duration.ofSeconds(10), "the free corner fallen");
        JsonNode pinned = browser.execute("return window.hapticsd.deformableNode('cloth', 0);");
        assertEquals(0.0, pinned.get(2).asDouble(), 1e-6, "a pinned corner stays");
        assertTrue(number("hook.triangles") >= 50, "the cloth's 50 triangles are drawn: " + number("hook.triangles"));
        assertEquals(0, (int) number("hook.errors.length"), state());
        saveScreenshot("cloth.png");
    }

    @Test
    void shouldDrawSource001sStringBucklingInView() throws Exception {
        // scenes/string-buckling.yaml: a 100 m string whose right end runs in along the axis; the page must frame it
        // (its clip planes follow the scene's size) and move its polyline live.
        restartWith(Path.of("..", "scenes", "string-buckling.yaml"));
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.deformableUpdates >= 20 && hook.framesRendered >= 20 && hook.deformableNode('string', 40) !== null"
            + " && hook.deformableNode('string', 40)[0] < 97.0", Duration.ofSeconds(30),
            "the string drawn and its end moving in");
        // The pinned left end, at the origin, about 120 m from the camera: beyond fixed 20 m clip planes, in view here
        // (the rest of the string moves on beyond the first framing as it folds back past its left end).
        assertTrue(browser.execute("return window.hapticsd.inView(window.hapticsd.deformableNode('string', 0));")
            .asBoolean(), "the left end in view: " + state());
        assertEquals(0, (int) number("hook.errors.length"), state());
        saveScreenshot("string-buckling.png");
    }

    @Test
    void shouldPlotTheLastImpulseWaveformBesideTheForce() throws Exception {
        // scenes/tap.yaml: the stylus taps a block whose material has transients, every 4.5 s from t = 1.5 s.
        restartWith(Path.of("..", "scenes", "tap.yaml"));
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.lastPulse !== null && hook.framesRendered >= 5", Duration.ofSeconds(30), "a tap's pulse");
        JsonNode pulse = browser.execute("return window.hapticsd.lastPulse;");
        assertTrue(pulse.get("label").asText().contains("tool / block"), pulse.toString());
        assertEquals("PENALTY", pulse.get("mode").asText(), pulse.toString());
        double ip = pulse.get("impulseNewtonSeconds").asDouble();
        double heightN = pulse.get("heightN").asDouble();
        double durationS = pulse.get("durationS").asDouble();
        // The page's curve is the server's shape: its area is IP_z within 0.5 % (numerical integration), it peaks
        // at H (IP_z/(H·W) = 0.51..0.17 for these taps, inside the shapes of height H), one bar per tick of W.
        assertEquals(ip, pulse.get("areaNs").asDouble(), 0.005 * ip, pulse.toString());
        assertEquals(heightN, pulse.get("peakN").asDouble(), 0.005 * heightN, pulse.toString());
        assertEquals((int) Math.ceil(durationS * 1000 - 1e-9), pulse.get("samples").asInt(), pulse.toString());
        // Drawn: the plot's canvas holds the curve's orange.
        await("(() => { const c = document.getElementById('plot-pulse'); const d = c.getContext('2d')"
            + ".getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 0; i < d.length; i += 4) {"
            + " if (d[i] > 200 && d[i + 1] > 120 && d[i + 1] < 200 && d[i + 2] < 90) n++; } return n > 200; })()",
            Duration.ofSeconds(5), "the pulse drawn in #plot-pulse");
        assertEquals(0, (int) number("hook.errors.length"), state());
        saveScreenshot("pulse.png");
    }

    private void clickAndAwaitAck(String button, String kind) throws IOException, InterruptedException {
        browser.click(browser.findElement(button));
        await("document.getElementById('acks').dataset.last === '" + kind + ": accepted'", Duration.ofSeconds(10),
            kind + " acknowledged as accepted");
    }

    /**
     * A page loaded by a name of this machine that is not a loopback name, from a server on loopback: its WebSocket
     * is refused (DNS-rebinding guard), and the page says why and what to do instead of only "disconnected,
     * retrying" (an independent tester's report).
     */
    @Test
    void shouldSayWhyAPageOnANameThatIsNotLoopbackCannotStream() throws Exception {
        int port = server.httpPort();
        browser.navigate("http://" + ChromiumSession.ALIAS_HOST + ":" + port + "/");
        await("document.getElementById('st-conn').textContent.startsWith('refused by the server')",
            Duration.ofSeconds(15), "the refusal shown");
        assertEquals("refused by the server: host " + ChromiumSession.ALIAS_HOST + ":" + port + " is not a loopback "
            + "name; this server listens on loopback only: open the page as http://127.0.0.1:" + port + "/ or "
            + "http://localhost:" + port + "/, or start hapticsd with --allow-origin http://"
            + ChromiumSession.ALIAS_HOST + ":" + port, text("document.getElementById('st-conn').textContent"));
        assertEquals("disconnected", text("document.getElementById('status').dataset.connection"));
    }

    @Test
    void shouldShowDisconnectedAndReconnectWhenTheServerComesBack() throws Exception {
        int port = server.httpPort();
        browser.navigate("http://127.0.0.1:" + port + "/");
        await("hook.statesReceived >= 5", Duration.ofSeconds(30), "states arriving");
        // Revision 2 here; the restarted server below counts from 1 again, and the page must follow it there.
        clickAndAwaitAck("button[data-command='RESET_SCENE']", "RESET_SCENE");
        await("hook.sceneRevision === 2 && hook.parameterValue('contact.stiffnessNpm') === 1000",
            Duration.ofSeconds(10), "revision 2 and its parameters");
        long listsRead = (long) number("hook.parametersLoaded");

        StreamServerConfig again = live.config().withPorts(port, -1)
            .withBind(StreamServerConfig.LOOPBACK, StreamServerConfig.newToken());
        live.close();
        await("document.getElementById('status').dataset.connection === 'disconnected' && !hook.connected",
            Duration.ofSeconds(10), "disconnected shown");
        assertTrue(text("document.getElementById('st-conn').textContent").startsWith("disconnected"));

        // The server comes back on the same port as a restarted `run` would: a new loop, its scene at revision 1,
        // a token of its own.
        live = LiveServer.start(scenePath, again, sceneDir);
        assembly = live.assembly();
        server = live.server();
        long received = (long) number("hook.statesReceived");
        // Backoff 0.5, 1, 2, 4 s: the page is back within one 8 s step of the server's return.
        await("hook.connected && hook.statesReceived > " + received, Duration.ofSeconds(15), "reconnected");
        assertEquals("connected", text("document.getElementById('status').dataset.connection"));
        // The page read /api/session again and commands with the new token.
        await("hook.sessionsLoaded >= 2", Duration.ofSeconds(5), "the session read again");
        // And the restarted server's parameters and warnings, for its revision 1.
        await("hook.sceneRevision === 1 && hook.parametersLoaded > " + listsRead + " && hook.sceneWarnings !== null",
            Duration.ofSeconds(10), "the restarted server's parameters read");
        clickAndAwaitAck("#estop", "EMERGENCY_STOP");
    }

    /**
     * Found by a tester on a 200-sphere pile drawn in software: the page parsed every STATE in turn, fell tens of
     * seconds behind while showing "connected", and left an Emergency stop "waiting for ACK" after the connection
     * closed. The page's connection now hands on only the newest of the STATEs that arrived together (other messages
     * all, in order), asks for the rate of STATEs it can handle, and says which commands lost their ACK with the
     * connection. Run on the page's own module.
     */
    @Test
    void shouldHandleOnlyTheNewestOfStatesThatArrivedTogetherAndSayWhichCommandsLostTheirAck() throws Exception {
        browser.navigate("http://127.0.0.1:" + server.httpPort() + "/");
        await("hook.statesReceived >= 1", Duration.ofSeconds(30), "the page loaded");
        browser.execute("""
            window.conflation = null;
            import('/js/connection.js').then(({ StreamConnection }) => {
              const seen = [];
              const lost = [];
              const handlers = { onMessage: (m) => seen.push(m.type + (m.tick === undefined ? '' : ':' + m.tick)),
                onAck: () => {}, onLost: (id, command) => lost.push(id + ':' + command.kind), onOpen: () => {},
                onClose: () => {} };
              const busy = new StreamConnection('ws://127.0.0.1:9/ws', handlers);
              for (let i = 1; i <= 50; i++) {
                busy.receive('{"type":"STATE","tick":' + i + '}');
              }
              busy.receive('{"type":"EVENTS","events":[]}');
              // A connection that closes with two commands in flight (nothing listens on port 9).
              const closing = new StreamConnection('ws://127.0.0.1:9/ws', handlers);
              closing.pending.set(7, { kind: 'EMERGENCY_STOP', args: {} });
              closing.pending.set(8, { kind: 'PAUSE', args: {} });
              closing.start();
              // The rate it asks for: a page asking for 60 that handled 9 STATEs in 3 s asks for 3 a second; after
              // three windows in a row of handling nine tenths of it, a quarter more (at least 1); never more than it
              // opened with.
              const sent = [];
              const adapting = new StreamConnection('ws://127.0.0.1:9/ws', handlers, 60);
              adapting.socket = { readyState: WebSocket.OPEN, send: (text) => sent.push(JSON.parse(text)) };
              // Windows of exactly 3 s: the rates are whole numbers at the edges of the rules (a CI run whose
              // window came out 3 ms longer read 9 STATEs as 2.998 a second).
              const window3s = (received, handled) => {
                adapting.windowStartMs = 1000;
                adapting.windowReceived = received;
                adapting.windowHandled = handled;
                adapting.adaptRate(4000);
                return adapting.rateHz;
              };
              const rates = [window3s(100, 9), window3s(9, 9), window3s(9, 9), window3s(9, 9), window3s(12, 10),
                window3s(12, 12), window3s(12, 12), window3s(12, 12)];
              adapting.rateHz = 56;
              adapting.windowsKeepingUp = 2;
              rates.push(window3s(168, 168));
              setTimeout(() => {
                window.conflation = { seen, skipped: busy.statesSkipped, lost, pending: closing.pending.size, rates,
                  sent: sent.map((m) => m.type + ':' + m.rateHz) };
              }, 1500);
            });
            return true;""");
        await("window.conflation !== null", Duration.ofSeconds(10), "the connection module exercised");
        JsonNode result = browser.execute("return window.conflation;");
        assertEquals("[\"EVENTS\",\"STATE:50\"]", result.get("seen").toString(),
            "the EVENTS at once, then the newest STATE alone");
        assertEquals(49, result.get("skipped").asInt());
        assertEquals("[\"7:EMERGENCY_STOP\",\"8:PAUSE\"]", result.get("lost").toString());
        assertEquals(0, result.get("pending").asInt());
        assertEquals("[3,3,3,4,4,4,4,5,60]", result.get("rates").toString(),
            "down to what it handles, then a quarter more (at least 1) after three windows of keeping up");
        assertEquals("[\"SUBSCRIBE:3\",\"SUBSCRIBE:4\",\"SUBSCRIBE:5\",\"SUBSCRIBE:60\"]",
            result.get("sent").toString());
    }

    private void drag(JsonNode from, JsonNode to) throws IOException, InterruptedException {
        ObjectNode mouse = JSON.createObjectNode().put("type", "pointer").put("id", "mouse");
        mouse.putObject("parameters").put("pointerType", "mouse");
        ArrayNode actions = mouse.putArray("actions");
        double x0 = from.get("x").asDouble();
        double y0 = from.get("y").asDouble();
        double x1 = to.get("x").asDouble();
        double y1 = to.get("y").asDouble();
        actions.addObject().put("type", "pointerMove").put("duration", 0).put("origin", "viewport")
            .put("x", Math.round(x0)).put("y", Math.round(y0));
        actions.addObject().put("type", "pointerDown").put("button", 0);
        int steps = 12;
        for (int i = 1; i <= steps; i++) {
            double f = (double) i / steps;
            actions.addObject().put("type", "pointerMove").put("duration", 40).put("origin", "viewport")
                .put("x", Math.round(x0 + f * (x1 - x0))).put("y", Math.round(y0 + f * (y1 - y0)));
        }
        actions.addObject().put("type", "pointerUp").put("button", 0);
        browser.perform(mouse);
    }

    /**
     * The rendered force once it has settled: five readings 100 ms apart within 0.02 N of each other (the contact
     * settles in about 0.1 s with these springs and dampers, the safety slew adds at most 0.5 N per tick).
     */
    private double awaitSteadyForce() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        double[] last = new double[5];
        int readings = 0;
        while (System.nanoTime() - deadline < 0) {
            last[readings % last.length] = number("hook.lastForceN");
            readings++;
            if (readings >= last.length) {
                double min = Double.POSITIVE_INFINITY;
                double max = Double.NEGATIVE_INFINITY;
                for (double f : last) {
                    min = Math.min(min, f);
                    max = Math.max(max, f);
                }
                if (max - min <= 0.02) {
                    return last[(readings - 1) % last.length];
                }
            }
            Thread.sleep(100);
        }
        fail("the rendered force did not settle within 10 s: " + state());
        return Double.NaN;
    }

    private BufferedImage saveScreenshot(String name) throws IOException, InterruptedException {
        byte[] png = browser.screenshot();
        Files.createDirectories(OUT);
        Files.write(OUT.resolve(name), png);
        return ImageIO.read(new ByteArrayInputStream(png));
    }

    /**
     * The WebGL canvas really shows the scene: a good part of it differs from the clear colour (the floor alone
     * covers most of the view), and the green tool is where the page says it is.
     */
    private void assertDrawn(BufferedImage shot) throws IOException, InterruptedException {
        JsonNode rect = browser.execute("const r = document.querySelector('#view canvas').getBoundingClientRect();"
            + "return {x: r.left, y: r.top, w: r.width, h: r.height};");
        int x0 = rect.get("x").asInt();
        int y0 = rect.get("y").asInt();
        int w = Math.min(rect.get("w").asInt(), shot.getWidth() - x0);
        int h = Math.min(rect.get("h").asInt(), shot.getHeight() - y0);
        long drawn = 0;
        for (int y = y0; y < y0 + h; y++) {
            for (int x = x0; x < x0 + w; x++) {
                if (distance(shot.getRGB(x, y), CLEAR_RGB) > 24) {
                    drawn++;
                }
            }
        }
        double drawnFraction = (double) drawn / ((long) w * h);
        assertTrue(drawnFraction > 0.10, "only " + drawnFraction + " of the canvas differs from the clear colour");

        JsonNode tool = browser.execute("return window.hapticsd.toolScreen();");
        int tx = (int) Math.round(tool.get("x").asDouble());
        int ty = (int) Math.round(tool.get("y").asDouble());
        int green = 0;
        for (int y = ty - 15; y <= ty + 15; y++) {
            for (int x = tx - 15; x <= tx + 15; x++) {
                if (x >= 0 && y >= 0 && x < shot.getWidth() && y < shot.getHeight() && isToolGreen(shot.getRGB(x, y))) {
                    green++;
                }
            }
        }
        // The tool (5 mm radius) spans tens of pixels at this zoom; 40 of the 961 pixels around its centre is a
        // low bar that a missing or misplaced tool does not pass.
        assertTrue(green >= 40, "tool-green pixels around the tool at (" + tx + ", " + ty + "): " + green);
    }

    private static int distance(int rgb, int other) {
        return Math.max(Math.abs(((rgb >> 16) & 0xff) - ((other >> 16) & 0xff)),
            Math.max(Math.abs(((rgb >> 8) & 0xff) - ((other >> 8) & 0xff)), Math.abs((rgb & 0xff) - (other & 0xff))));
    }

    /** The tool's 0x39d353 under the scene's lights: green well above red and blue; no other body is green. */
    private static boolean isToolGreen(int rgb) {
        int r = (rgb >> 16) & 0xff;
        int g = (rgb >> 8) & 0xff;
        int b = rgb & 0xff;
        return g > 120 && g - r > 40 && g - b > 40;
    }

    private void await(String condition, Duration timeout, String what) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String script = "const hook = window.hapticsd; return !!hook && !!(" + condition + ");";
        while (true) {
            if (browser.execute(script).asBoolean()) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("waited " + timeout.toSeconds() + " s for " + what + ": " + state());
            }
            Thread.sleep(50);
        }
    }

    private double number(String expression) throws IOException, InterruptedException {
        return browser.execute("const hook = window.hapticsd; return " + expression + ";").asDouble();
    }

    private String text(String expression) throws IOException, InterruptedException {
        return browser.execute("const hook = window.hapticsd; return " + expression + ";").asText();
    }

    /** The page's view of things, for failure messages. */
    private String state() throws IOException, InterruptedException {
        return browser.execute("return JSON.stringify({hook: window.hapticsd, errors: window.hapticsdErrors, "
            + "status: document.getElementById('status')?.innerText});").asText();
    }
}
