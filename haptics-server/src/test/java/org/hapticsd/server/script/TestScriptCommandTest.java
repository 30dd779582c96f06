package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.hapticsd.server.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code hapticsd test}: results printed, JUnit XML written, exit codes 0 / 1 / 2 / 3, lockstep only on the emulator. */
class TestScriptCommandTest {

    private record Outcome(int code, String out, String err) {
    }

    private static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Outcome(code, out.toString(), err.toString());
    }

    /** {@code script}, written to {@code dir/name}, runs and every one of its {@code checks} assertions passes. */
    private static void assertPasses(Path dir, String name, String script, int checks) throws Exception {
        Outcome outcome = run("test", Files.writeString(dir.resolve(name), script).toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains(checks + " passed, 0 failed"), outcome.out());
    }

    /** {@code script}, written to {@code dir/name}, is refused before the run (exit 2) with {@code message}. */
    private static void assertRefused(Path dir, String name, String script, String message) throws Exception {
        Outcome refused = run("test", Files.writeString(dir.resolve(name), script).toString());
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains(message), refused.err());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPassTheShippedWallScriptAndWriteJUnitXml(@TempDir Path dir) throws Exception {
        Path xml = dir.resolve("results.xml");
        Outcome outcome = run("test", "../scripts/press-wall.yaml", "--junit-xml", xml.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("5 passed, 0 failed"), outcome.out());
        assertTrue(outcome.out().contains("PASS steady wall force: measured force.x from 1.600 s to 2.100 s"),
            outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("<testsuites tests=\"5\" failures=\"0\""), report);
        assertTrue(report.contains("<testcase classname=\"press the wall\" name=\"steady wall force\">\n"
            + "      <system-out>host timing from "), report);
        assertTrue(outcome.out().contains("       host timing from 0.300 s to 2.100 s: loop gap "), outcome.out());
    }

    /** The same script given twice ran once, silently (a tester). */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldSayAScriptGivenTwiceRunsOnce(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("twice.yaml"), """
            name: twice
            timing: lockstep
            duration: 0.2
            assertions:
              - {name: no force, from: 0.0, to: 0.2, force: {axis: magnitude, max: 0.001}}
            """);
        Path spelledAnotherWay = dir.resolve("sub").resolve("..").resolve("twice.yaml");
        Files.createDirectories(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), script);
        Outcome outcome = run("test", script.toString(), script.toString(), spelledAnotherWay.toString(),
            link.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("note: " + script + " is given more than once; it runs once"), outcome.out());
        assertTrue(outcome.out().contains("note: " + spelledAnotherWay + " is " + script + " again; it runs once"),
            outcome.out());
        assertTrue(outcome.out().contains("note: " + link + " is " + script + " again; it runs once"), outcome.out());
        assertTrue(outcome.out().contains("1 passed, 0 failed"), outcome.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailWithExitOneAndReportTheMeasuredValue(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("wrong.yaml");
        Files.writeString(script, """
            name: expects too much
            timeline:
              - {at: 0.2, moveTo: [0.05, 0, 0], over: 0.3}
            assertions:
              - {name: impossible force, from: 1.3, to: 1.5, force: {axis: magnitude, min: 6.0}}
              - {name: never overran much, maxOverruns: 1000000}
            """);
        Path xml = dir.resolve("results.xml");
        Outcome outcome = run("test", script.toString(), "--junit-xml", xml.toString());
        assertEquals(1, outcome.code(), outcome.out());
        assertTrue(outcome.out().contains("FAIL impossible force: measured force.magnitude from 1.300 s to 1.500 s"),
            outcome.out());
        assertTrue(outcome.out().contains("1 passed, 1 failed"), outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("failures=\"1\"") && report.contains("<failure message=\"measured force.magnitude"),
            report);
    }

    /**
     * {@code toolPosition}: the proxy of {@code scenes/proxy.yaml} stays on the plate however hard the hand presses;
     * the same script on the tool's own contacts fails it, naming where the tool went.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCheckWhereTheToolIsAndThatAProxyStaysOnThePlate(@TempDir Path dir) throws Exception {
        String scene = Files.readString(Path.of("../scenes/proxy.yaml"));
        Files.writeString(dir.resolve("proxy.yaml"), scene);
        Files.writeString(dir.resolve("contact.yaml"), scene.replace("rendering: proxy", "rendering: contact"));
        String script = """
            name: NAME
            timing: lockstep
            scene: NAME.yaml
            duration: 2.0
            assertions:
              - {name: on the plate, from: 0.0, to: 2.0, toolPosition: {axis: z, min: 0.00599}}
              - {name: pressed, from: 1.5, to: 2.0, force: {axis: z, min: 7.99, max: 8.01}}
              - {name: touching, from: 1.5, to: 2.0, contact: true}
            """;
        Path proxy = Files.writeString(dir.resolve("proxy-script.yaml"), script.replace("NAME", "proxy"));
        Outcome held = run("test", proxy.toString());
        assertEquals(0, held.code(), held.out() + held.err());
        assertTrue(held.out().contains("PASS on the plate: measured tool.z from 0.000 s to 2.000 s [0.006000, 0.020000]"
            + " m"), held.out());

        Path contact = Files.writeString(dir.resolve("contact-script.yaml"), script.replace("NAME", "contact"));
        Outcome through = run("test", contact.toString());
        assertEquals(1, through.code(), through.out() + through.err());
        assertTrue(through.out().contains("FAIL on the plate: measured tool.z from 0.000 s to 2.000 s [-0.05"),
            through.out());
        assertTrue(through.out().contains("expected within [0.00599, +inf] m"), through.out());

        Path noAxis = Files.writeString(dir.resolve("no-axis.yaml"),
            "name: s\nassertions:\n  - {at: 1.0, toolPosition: {min: 0.0}}\n");
        Outcome refused = run("test", noAxis.toString());
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains("assertions[0].toolPosition.axis: missing (x, y or z)"), refused.err());
    }

    /**
     * {@code renderForce}: the server commands a known force, constant or a sine, on top of what it renders, and the
     * device delivers it. Lockstep through the emulator's link: 2 N up exactly once the slew limit (0.5 N a tick) has
     * reached it, and the emulator reports applying it; a 10 Hz sine of 1 N, sampled each millisecond, peaks at
     * ±1 N; [0, 0, 0] stops it. A sine faster than half the loop's rate is refused before the run.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldCommandAKnownForceAndSeeTheDeviceDeliverIt(@TempDir Path dir) throws Exception {
        String script = """
            name: known force
            device: emulator
            timing: lockstep
            timeline:
              - {at: 0.0, hold: [-0.05, 0.0, 0.0]}
              - {at: 1.5, renderForce: [0.0, 0.0, 2.0]}
              - {at: 2.5, renderForce: [1.0, 0.0, 0.0], frequencyHz: 10}
              - {at: 3.5, renderForce: [0.0, 0.0, 0.0]}
            duration: 4.0
            assertions:
              - {name: active before it, from: 1.2, to: 1.5, safety: active}
              - {name: nothing before it, from: 1.2, to: 1.49, force: {axis: magnitude, max: 1e-9}}
              - {name: 2 N up, from: 1.51, to: 2.49, force: {axis: z, min: 1.999999, max: 2.000001}}
              - {name: delivered, from: 1.6, to: 2.49, force: {axis: z, min: 1.999, max: 2.001, source: delivered}}
              - {name: the sine, from: 2.51, to: 3.49, force: {axis: x, min: -1.000001, max: 1.000001}}
              - {name: its crest, at: 2.525, force: {axis: x, min: 0.999999}}
              - {name: off again, from: 3.51, to: 4.0, force: {axis: magnitude, max: 1e-9}}
            """;
        assertPasses(dir, "force.yaml", script, 7);

        assertRefused(dir, "fast.yaml", script.replace("frequencyHz: 10", "frequencyHz: 600"),
            "timeline[2].frequencyHz: 600 Hz is above half the loop's rate (1000 Hz)");
        assertRefused(dir, "stray.yaml", script.replace("hold: [-0.05, 0.0, 0.0]}",
            "hold: [-0.05, 0.0, 0.0], frequencyHz: 5}"),
            "timeline[0].frequencyHz: only a renderForce step has a frequency");
    }

    /**
     * {@code set}: a script changes a body's material effect on its timeline, as a stream client's SET_PARAMETER
     * would. The default wall made magnetic (1 N over 10 mm), the hand held 13 mm from it: the stylus settles where the
     * hand's spring (200 N/m) and the pull balance, 4 mm from the wall, pulled 0.8 N; {@code set} turns the magnet off
     * and the force goes to zero (through the safety layer's slew limit, 0.5 N a tick). A name the scene does not
     * have, or a value above the file's, is refused before the run, naming the step.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldChangeABodysMaterialEffectOnTheTimeline(@TempDir Path dir) throws Exception {
        String wall = Files.readString(Path.of("../scenes/wall.yaml")).replace("    position: [0.03, 0.0, 0.0]\n",
            "    position: [0.03, 0.0, 0.0]\n    material: {magnet: {maxForceN: 1.0, distanceM: 0.01}}\n");
        Files.writeString(dir.resolve("magnet.yaml"), wall);
        String script = """
            name: magnet off
            device: sim
            timing: lockstep
            scene: magnet.yaml
            duration: 5.0
            timeline:
              - {at: 0.0, hold: [0.017, 0.0, 0.0]}
              - {at: 4.0, set: {name: bodies.wall.magnet.maxForceN, value: 0.0}}
            assertions:
              - {name: active, from: 3.5, to: 3.99, safety: active}
              - {name: pulled, from: 3.5, to: 3.99, force: {axis: x, min: 0.79, max: 0.81}}
              - {name: let go, from: 4.5, to: 5.0, force: {axis: magnitude, max: 1e-9}}
            """;
        assertPasses(dir, "set.yaml", script, 3);

        assertRefused(dir, "stronger.yaml", script.replace("value: 0.0", "value: 2.0"),
            "timeline[1].set.value: bodies.wall.magnet.maxForceN = 2.0 is outside the local limits [0.0, 1.0]");
        assertRefused(dir, "other.yaml", script.replace("bodies.wall.magnet.maxForceN", "bodies.box.viscosityNspm"),
            "timeline[1].set.name: 'bodies.box.viscosityNspm' is not a parameter of scene 'wall'; it has "
                + "render.forceScale, contact.stiffnessNpm, contact.dampingNspm, bodies.wall.magnet.maxForceN");
    }

    /**
     * {@code set} takes every parameter SET_PARAMETER does, not only the bodies': the shipped example
     * {@code scripts/soften-wall.yaml} softens the default wall from 1000 to 500 N/m, then scales the force by half,
     * and every window's force is the series spring's within 1 % (the script says why). A stiffer wall than the
     * file's is refused before the run.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPassTheShippedScriptThatSoftensTheWallAndScalesTheForce(@TempDir Path dir) throws Exception {
        Outcome shipped = run("test", "../scripts/soften-wall.yaml");
        assertEquals(0, shipped.code(), shipped.out() + shipped.err());
        assertTrue(shipped.out().contains("3 passed, 0 failed"), shipped.out());

        Files.copy(Path.of("../scenes/wall.yaml"), dir.resolve("wall.yaml"));
        String script = Files.readString(Path.of("../scripts/soften-wall.yaml"))
            .replace("scene: ../scenes/wall.yaml", "scene: wall.yaml");
        assertRefused(dir, "stiffer.yaml", script.replace("value: 500.0", "value: 1500.0"),
            "timeline[2].set.value: contact.stiffnessNpm = 1500.0 is outside the local limits (0, 1000.0] (a spring "
                + "needs a stiffness above 0");
    }

    /**
     * {@code buttons}: a script presses the stylus's first button on {@code scenes/grab.yaml}'s cube and lifts it;
     * the hand then holds the cube's weight (1.47 N down). On the simulated stylus and through the emulator's link
     * (its STATE carries the buttons). Without the buttons step the tool lifts off alone and the check fails.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldPressTheStylusButtonsToGrabABody(@TempDir Path dir) throws Exception {
        Files.copy(Path.of("../scenes/grab.yaml"), dir.resolve("grab.yaml"));
        String script = """
            name: NAME
            device: DEVICE
            timing: lockstep
            scene: grab.yaml
            duration: 4.0
            timeline:
              - {at: 0.0, moveTo: [0.0, 0.0, 0.044], over: 0.8}
              - {at: 1.0, buttons: 1}
              - {at: 1.2, moveTo: [0.0, 0.0, 0.104], over: 1.0}
            assertions:
              - {name: the weight, from: 3.0, to: 4.0, force: {axis: z, min: -1.50, max: -1.44}}
              - {name: lifted, from: 3.0, to: 4.0, toolPosition: {axis: z, min: 0.095}}
            """;
        for (String device : new String[] {"sim", "emulator"}) {
            Path file = Files.writeString(dir.resolve(device + ".yaml"),
                script.replace("NAME", "grab on " + device).replace("DEVICE", device));
            Outcome held = run("test", file.toString());
            assertEquals(0, held.code(), held.out() + held.err());
            assertTrue(held.out().contains("2 passed, 0 failed"), held.out());
        }
        // Where the cube went: on the table before the press, lifted after it (its centre 6.94 cm up), not sideways.
        Path body = Files.writeString(dir.resolve("body.yaml"), script.replace("NAME", "cube").replace("DEVICE", "sim")
            + "  - {name: on the table, from: 0.0, to: 1.0, bodyPosition: {body: cube, axis: z, min: 0.0195, "
            + "max: 0.0205}}\n"
            + "  - {name: cube lifted, from: 3.0, to: 4.0, bodyPosition: {body: cube, axis: z, min: 0.065}}\n"
            + "  - {name: in line, from: 0.0, to: 4.0, bodyPosition: {body: cube, axis: x, min: -0.001, max: 0.001}}\n");
        Outcome lifted = run("test", body.toString());
        assertEquals(0, lifted.code(), lifted.out() + lifted.err());
        assertTrue(lifted.out().contains("PASS cube lifted: measured cube.z from 3.000 s to 4.000 s [0.0694"),
            lifted.out());
        Path wrongName = Files.writeString(dir.resolve("wrong-name.yaml"), script.replace("NAME", "x")
            .replace("DEVICE", "sim") + "  - {at: 1.0, bodyPosition: {body: cub, axis: z, min: 0.0}}\n");
        Outcome unknown = run("test", wrongName.toString());
        assertEquals(2, unknown.code(), unknown.out() + unknown.err());
        assertTrue(unknown.err().contains("assertions[2].bodyPosition.body: no body named 'cub' in scene 'grab' (its "
            + "bodies: table, cube; the tool is checked with toolPosition)"), unknown.err());

        Path noButton = Files.writeString(dir.resolve("no-button.yaml"), script.replace("NAME", "no button")
            .replace("DEVICE", "sim").replace("  - {at: 1.0, buttons: 1}\n", ""));
        Outcome alone = run("test", noButton.toString());
        assertEquals(1, alone.code(), alone.out() + alone.err());
        assertTrue(alone.out().contains("FAIL the weight: measured force.z from 3.000 s to 4.000 s [0.0000, 0.0000] N"),
            alone.out());

        Path wall = Files.writeString(dir.resolve("replay.yaml"),
            "name: s\ndevice: replay:x.bin\ntimeline:\n  - {at: 1.0, buttons: 1}\n");
        Outcome refused = run("test", wall.toString());
        assertEquals(2, refused.code(), refused.out() + refused.err());
        assertTrue(refused.err().contains("timeline[0]: the hand of device"), refused.err());
    }

    /**
     * A long hard press: the safety layer's thermal limit holds the force to the device's continuous force, and the
     * report says so under the failed assertion, rather than leaving a test engineer with a force that fell.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldSayWhatTheRunDidBeyondItsAssertions(@TempDir Path dir) throws Exception {
        Files.copy(Path.of(TestScriptCommandTest.class.getResource("/scenes/thermal-hold.yaml").toURI()),
            dir.resolve("hold.yaml"));
        Path script = dir.resolve("press.yaml");
        Files.writeString(script, """
            name: long press
            timing: lockstep
            scene: hold.yaml
            duration: 6
            assertions:
              - {name: pressing, from: 2.2, to: 5.9, force: {axis: z, min: 7.9, max: 8.1}}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(1, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("  FAIL pressing: measured force.z from 2.200 s to 5.900 s [4.0000, 8.0000] N"
            + ", expected within [7.9, 8.1] N\n  note: thermal limit: "), outcome.out());
        assertTrue(outcome.out().contains(" lowered toward the device's continuous force 4.00 N; motors at 100% of its heat at"
            + " the end\n0 passed, 1 failed"), outcome.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNoteAToolSpringTheDeviceCannotRenderPassively(@TempDir Path dir) throws Exception {
        // The default scene with a 5000 N/m wall: 5000·0.001/2 + 0.2 = 2.7 N·s/m against the stylus's 1 N·s/m, and
        // above its rated 3000 N/m. The notes sit beside the verdicts, where a buzzing wall's failure is read.
        String wall = new String(TestScriptCommandTest.class.getResourceAsStream("/scenes/wall.yaml").readAllBytes(),
            java.nio.charset.StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("stiff.yaml"), wall.replace("stiffnessNpm: 1000.0", "stiffnessNpm: 5000.0"));
        Path script = Files.writeString(dir.resolve("stiff-script.yaml"), """
            name: stiff wall
            timing: lockstep
            scene: stiff.yaml
            duration: 0.2
            assertions:
              - {name: no force, from: 0.0, to: 0.2, force: {axis: magnitude, max: 0.001}}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("  note: scene 'wall': the tool's penalty contacts are not passive on device "
            + "'simulated stylus': K·T/2 + B = 2.7 N·s/m"), outcome.out());
        assertTrue(outcome.out().contains("  note: scene 'wall': the tool's penalty contacts render 5000 N/m, above "
            + "device 'simulated stylus''s nominal stable stiffness 3000 N/m"), outcome.out());
        Outcome quiet = run("test", "../scripts/press-wall.yaml");
        assertFalse(quiet.out().contains("penalty contacts"), quiet.out());
        assertFalse(quiet.out().contains("in PENALTY with"), quiet.out());
        // The build's own warning is a note too: a 1 g pebble on the default 1000 N/m spring, (1e-3 + 4e-4)/1e-3.
        Files.writeString(dir.resolve("pebble.yaml"), wall + "  - {name: pebble, motion: dynamic, "
            + "shape: {type: sphere, radiusM: 0.005}, position: [-0.05, 0.0, 0.0], massKg: 0.001}\n"
            + "gravity: [0.0, 0.0, 0.0]\n"
            + "contactModes:\n  - {body: pebble, mode: penalty}\n");
        Path pebble = Files.writeString(dir.resolve("pebble-script.yaml"), """
            name: pebble
            timing: lockstep
            scene: pebble.yaml
            duration: 0.2
            assertions:
              - {name: no force, from: 0.0, to: 0.2, force: {axis: magnitude, max: 0.001}}
            """);
        Outcome noted = run("test", pebble.toString());
        assertEquals(0, noted.code(), noted.out() + noted.err());
        assertTrue(noted.out().contains("  note: scene 'wall': body 'pebble' meets 'wall' in PENALTY with "
            + "(k·Δt² + 2·b·Δt)/m = 1.4 at 1000 Hz (m = 0.001 kg)"), noted.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRefuseAnInstantAfterTheGivenEndOfTheRun(@TempDir Path dir) throws Exception {
        // The script contradicts itself: refused before it runs (it used to run, then fail with "no tick").
        Path script = dir.resolve("late.yaml");
        Files.writeString(script, """
            name: late
            duration: 0.5
            assertions:
              - {name: after the end, at: 2.0, safety: gated}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code(), outcome.out());
        assertTrue(outcome.err().contains(script + ":4:") && outcome.err().contains("assertions[0].at: 2.000 s is "
            + "after the run's end (duration 0.500 s)"), outcome.err());
        assertEquals("", outcome.out(), "nothing ran");
    }

    @Test
    void shouldRejectAMalformedScriptNamingFileLineAndField(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("bad.yaml");
        Files.writeString(script, """
            name: bad
            assertions:
              - {at: 1.0, safety: active}
              - {at: 1.0, force: {axis: w, max: 1}}
            """);
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        List<String> lines = outcome.err().strip().lines().toList();
        assertEquals(1, lines.size(), outcome.err());
        assertTrue(lines.get(0).contains(script + ":4:") && lines.get(0).contains("assertions[1].force.axis"),
            lines.get(0));
        assertEquals("", outcome.out(), "nothing ran");
    }

    @Test
    void shouldRejectAnAssertionWithoutAnInstantOrInterval(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("bad.yaml");
        Files.writeString(script, "name: bad\nassertions:\n  - {name: when, safety: active}\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(script + ":3:") && outcome.err().contains("give either at, or from and to"),
            outcome.err());
    }

    @Test
    void shouldRejectAnUnknownDeviceNamingTheDevicesThereAre(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("usb.yaml");
        Files.writeString(script, "name: s\ndevice: usb:3\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(script + ":2:") && outcome.err().contains("'usb:3' is not a device")
            && outcome.err().contains("serial:PORT[:BAUD], tcp:HOST:PORT, emulator"), outcome.err());
    }

    @Test
    void shouldRejectScriptingTheHandOfARealDevice(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("real.yaml");
        Files.writeString(script, "name: s\ndevice: serial:/dev/ttyUSB0\ntimeline:\n"
            + "  - {at: 0.1, hold: [0.0, 0.0, 0.0]}\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(script + ":4:") && outcome.err().contains("timeline[0]")
            && outcome.err().contains("cannot be scripted"), outcome.err());
    }

    @Test
    void shouldRejectFaultsAndLinkChecksWithoutALink(@TempDir Path dir) throws Exception {
        Path unplug = dir.resolve("unplug.yaml");
        Files.writeString(unplug, "name: s\ndevice: sim\ntimeline:\n  - {at: 0.1, unplug: 0.5}\n");
        Outcome outcome = run("test", unplug.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("unplug and garbage need device: emulator, not 'sim'"), outcome.err());

        Path latency = dir.resolve("latency.yaml");
        Files.writeString(latency, "name: s\ndevice: sim\nassertions:\n  - {linkLatency: {maxMs: 2}}\n");
        outcome = run("test", latency.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(latency + ":4:") && outcome.err().contains("need a device on a link"),
            outcome.err());
    }

    @Test
    void shouldRejectATimeOnAWholeRunCheckAndAnEmulatorSettingForAnotherDevice(@TempDir Path dir)
            throws Exception {
        Path timed = dir.resolve("timed.yaml");
        Files.writeString(timed, "name: s\ndevice: emulator\nassertions:\n  - {at: 1.0, maxFramesLost: 0}\n");
        Outcome outcome = run("test", timed.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("covers the whole run: no at, from or to"), outcome.err());

        Path settings = dir.resolve("settings.yaml");
        Files.writeString(settings, "name: s\ndevice: sim\nemulator: {watchdogMs: 20}\n");
        outcome = run("test", settings.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(settings + ":3:1: emulator: settings for the emulator need device: emulator"),
            outcome.err());

        Path transport = dir.resolve("transport.yaml");
        Files.writeString(transport, "name: s\ndevice: emulator\nemulator: {transport: usb}\n");
        outcome = run("test", transport.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(transport + ":3:") && outcome.err().contains("emulator.transport: must be pty or tcp"),
            outcome.err());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldRunAgainstTheEmulatorOverTcpAndReportLinkChecksAndDeliveredForce(@TempDir Path dir)
            throws Exception {
        Path script = dir.resolve("emu.yaml");
        // The emulator's hand holds the stylus still at the origin, in free space (the wall starts at x = 25 mm):
        // no contact, so commanded and delivered force are exactly 0. The link must measure a round trip (well under a second on loopback) and lose nothing;
        // an impossible bound (0.000001 ms) must fail with the measured value printed.
        Files.writeString(script, "name: emu\ndevice: emulator\nemulator: {transport: tcp, watchdogMs: 50}\n"
            + "duration: 1.5\ntimeline:\n  - {at: 0.0, hold: [0.0, 0.0, 0.0]}\nassertions:\n"
            + "  - {name: delivered zero, from: 0.5, to: 1.4, force: {source: delivered, axis: magnitude, max: 0.0}}\n"
            + "  - {name: connected, from: 0.5, to: 1.4, connected: true}\n"
            + "  - {name: rtt, linkLatency: {percentile: 50, maxMs: 1000}}\n"
            + "  - {name: rtt impossible, linkLatency: {maxMs: 0.000001}}\n"
            + "  - {name: nothing lost, maxFramesLost: 0}\n"
            + "  - {name: no reconnect, reconnects: {max: 0}}\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(1, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("PASS delivered zero: measured delivered force.magnitude"), outcome.out());
        assertTrue(outcome.out().contains("PASS connected: measured connected from 0.500 s"), outcome.out());
        assertTrue(outcome.out().contains("PASS rtt: measured round trip p50 "), outcome.out());
        assertTrue(outcome.out().contains("FAIL rtt impossible: measured round trip p99 "), outcome.out());
        assertTrue(outcome.out().contains("PASS nothing lost: measured 0 frames lost or damaged"), outcome.out());
        assertTrue(outcome.out().contains("PASS no reconnect: measured 0 reconnects"), outcome.out());
        assertTrue(outcome.out().contains("5 passed, 1 failed"), outcome.out());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldReportAHostStallBeyondTheBudgetAsAnErrorWithExitThree(@TempDir Path dir) throws Exception {
        // A budget of exactly one 1 ms tick period, the least accepted: the intervals between ticks average the
        // period, so unless every one of a window's hundreds is exact to the nanosecond some exceed it and every
        // assertion's window breaks the budget. (A shorter budget is refused at load: ScriptLoadTest.)
        Path script = dir.resolve("budget.yaml");
        Files.writeString(script, """
            name: impossible budget
            hostTiming: {budgetMs: 1}
            duration: 0.5
            assertions:
              - {name: no force, from: 0.1, to: 0.4, force: {axis: magnitude, max: 0.001}}
              - {name: few overruns, maxOverruns: 1000000}
            """);
        Path xml = dir.resolve("results.xml");
        Outcome outcome = run("test", script.toString(), "--junit-xml", xml.toString());
        assertEquals(Main.EXIT_INCONCLUSIVE, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("ERROR no force: host stalled "), outcome.out());
        assertTrue(outcome.out().contains("(no loop tick; budget 1 ms) (not checked: measured force.magnitude"),
            outcome.out());
        assertTrue(outcome.out().contains("0 passed, 0 failed, 2 not checked"), outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("errors=\"2\""), report);
        assertTrue(report.contains("<error type=\"HostStall\" message=\"host stalled"), report);
    }

    /**
     * Times past a given duration, and a force range no force fits, are refused before anything runs: before, a
     * window running 29 s past a 1 s run passed, measured over the ticks it had.
     */
    @Test
    void shouldRefuseTimesPastTheDurationAndAnEmptyForceRange(@TempDir Path dir) throws Exception {
        Path window = dir.resolve("window.yaml");
        Files.writeString(window, "name: s\ndevice: sim\nduration: 1.0\nassertions:\n"
            + "  - {from: 0.5, to: 30.0, force: {max: 100}}\n");
        Outcome outcome = run("test", window.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(window + ":5:") && outcome.err().contains("assertions[0].to: 30.000 s is "
            + "after the run's end (duration 1.000 s)"), outcome.err());

        Path step = dir.resolve("step.yaml");
        Files.writeString(step, "name: s\ndevice: sim\nduration: 1.0\ntimeline:\n  - {at: 2.0, hold: [0.01, 0, 0]}\n");
        outcome = run("test", step.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("timeline[0].at: 2.000 s is not before the run's end"), outcome.err());

        Path over = dir.resolve("over.yaml");
        Files.writeString(over, "name: s\ndevice: sim\ntimeline:\n  - {at: 0.2, hold: [0.01, 0, 0], over: 0.3}\n");
        outcome = run("test", over.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("timeline[0].over: only a moveTo takes time"), outcome.err());

        Path range = dir.resolve("range.yaml");
        Files.writeString(range, "name: s\ndevice: sim\nassertions:\n  - {at: 0.5, force: {min: 5, max: 1}}\n");
        outcome = run("test", range.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("assertions[0].force: min 5.0 N is above max 1.0 N"), outcome.err());

        // The Falcon-like emulator streams at most 1000 Hz: a 4000 Hz loop sees a state every 4 ticks, past the
        // default 3-tick loop watchdog, and would never leave SAFE.
        Path fast = dir.resolve("fast.yaml");
        Files.writeString(fast, "name: s\ndevice: emulator\ntiming: lockstep\nrateHz: 4000\n");
        outcome = run("test", fast.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("would see one every 4 ticks, more than the scene's safety.watchdogTicks (3)")
            && outcome.err().contains("use rateHz up to 3000"), outcome.err());

        Path empty = dir.resolve("empty.yaml");
        Files.writeString(empty, "name: s\ndevice: emulator\nassertions:\n  - {framesLost: {}}\n");
        outcome = run("test", empty.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains("assertions[0].framesLost: give min, max or both"), outcome.err());
    }

    /**
     * A device that cannot be reached is not a malformed script: the suite goes on, that script's checks are ERROR
     * (DeviceUnavailable in the XML), the report is written, exit 3. Before, the whole suite stopped with exit 2 and
     * no XML after the earlier scripts had run. A replay recording that does not exist is malformed (exit 2, before
     * anything runs), found next to the script when its path is relative.
     */
    @Test
    void shouldReportAnUnreachableDeviceAsNotCheckedAndGoOn(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, "name: good\ndevice: sim\ntiming: realtime\nassertions:\n"
            + "  - {name: quiet start, at: 0.1, force: {axis: magnitude, max: 0.001}}\n");
        int freePort;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            freePort = probe.getLocalPort();
        }
        Path away = dir.resolve("away.yaml");
        Files.writeString(away, "name: away\ndevice: tcp:127.0.0.1:" + freePort + "\nassertions:\n"
            + "  - {name: pressed, at: 0.5, force: {max: 1}}\n");
        Path xml = dir.resolve("report.xml");
        Outcome outcome = run("test", good.toString(), away.toString(), "--junit-xml", xml.toString());
        assertEquals(3, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("PASS quiet start"), outcome.out());
        assertTrue(outcome.out().contains("ERROR pressed: the device could not be opened: " + away + ": device:"),
            outcome.out());
        assertTrue(outcome.out().contains("1 passed, 0 failed, 1 not checked"), outcome.out());
        assertTrue(Files.readString(xml).contains("<error type=\"DeviceUnavailable\""), Files.readString(xml));

        Path replay = dir.resolve("replay.yaml");
        Files.writeString(replay, "name: r\ndevice: replay:missing.rec\n");
        outcome = run("test", good.toString(), replay.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(replay + ":2:1: device: recording " + dir.resolve("missing.rec")
            + " not found"), outcome.err());
        assertEquals("", outcome.out(), "nothing ran");
    }

    /**
     * A recording as a regression test: the simulated stylus's press, run in lockstep and recorded, then replayed in
     * lockstep. Every tick's commanded force (the safety ramp included, timed on the simulated clock) and safety
     * state come back bit for bit, and two runs of the original record the same bytes.
     */
    @Test
    void shouldReplayALockstepRecordingBitForBitInLockstep(@TempDir Path dir) throws Exception {
        Path press = dir.resolve("press.yaml");
        Files.writeString(press, """
            name: press
            device: sim
            timing: lockstep
            timeline:
              - {at: 0.3, moveTo: [0.05, 0.0, 0.0], over: 0.5}
            assertions:
              - {name: wall, from: 1.2, to: 1.4, force: {axis: x, min: -4.30, max: -4.04}}
            """);
        Path first = Files.createDirectory(dir.resolve("first"));
        Path second = Files.createDirectory(dir.resolve("second"));
        assertEquals(0, run("test", press.toString(), "--record-dir", first.toString()).code());
        assertEquals(0, run("test", press.toString(), "--record-dir", second.toString()).code());
        assertArrayEquals(Files.readAllBytes(first.resolve("press.rec")), Files.readAllBytes(second.resolve("press.rec")));

        Path replay = dir.resolve("replay.yaml");
        Files.writeString(replay, "name: replay\ndevice: replay:first/press.rec\ntiming: lockstep\nduration: 1.4\n"
            + "assertions:\n  - {name: wall, from: 1.2, to: 1.4, force: {axis: x, min: -4.30, max: -4.04}}\n");
        Path replayed = Files.createDirectory(dir.resolve("replayed"));
        Outcome outcome = run("test", replay.toString(), "--record-dir", replayed.toString());
        assertEquals(0, outcome.code(), outcome.out());
        org.hapticsd.server.record.Recording original = org.hapticsd.server.record.Recording.read(
            first.resolve("press.rec"));
        org.hapticsd.server.record.Recording again = org.hapticsd.server.record.Recording.read(
            replayed.resolve("replay.rec"));
        assertTrue(again.recordCount() > 1000 && again.recordCount() <= original.recordCount(),
            again.recordCount() + " of " + original.recordCount());
        for (int i = 0; i < again.recordCount(); i++) {
            for (int axis = 0; axis < 3; axis++) {
                assertEquals(original.commandedForceN(i, axis), again.commandedForceN(i, axis), 0.0, "tick " + i);
            }
            assertEquals(original.safety(i), again.safety(i), "tick " + i);
        }
    }

    /**
     * A recording that can never be replayed is a malformed script (exit 2, one line, nothing run), as a missing one
     * is: it used to run and report every assertion as not checked (exit 3, "run again on a quieter machine").
     */
    @Test
    void shouldRefuseARecordingThatCannotBeReplayedBeforeAnythingRuns(@TempDir Path dir) throws Exception {
        Path slow = dir.resolve("slow.yaml");
        Files.writeString(slow, "name: slow\ndevice: sim\ntiming: lockstep\nrateHz: 500\nduration: 0.1\n");
        assertEquals(0, run("test", slow.toString(), "--record-dir", dir.toString()).code());
        Path corrupt = Files.writeString(dir.resolve("corrupt.rec"), "not a recording at all, just some text");
        Path good = dir.resolve("good.yaml");
        Files.writeString(good, "name: good\ndevice: sim\ntiming: lockstep\nduration: 0.1\n");

        Path wrongRate = dir.resolve("wrong-rate.yaml");
        Files.writeString(wrongRate, "name: w\ntiming: lockstep\ndevice: replay:slow.rec\nrateHz: 1000\n");
        Outcome outcome = run("test", good.toString(), wrongRate.toString());
        assertEquals(2, outcome.code(), outcome.out() + outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().contains(wrongRate + ":3:1: device: recording " + dir.resolve("slow.rec")
            + " was made at 500 Hz and the loop runs at 1000 Hz"), outcome.err());
        assertEquals("", outcome.out(), "nothing ran");

        Path broken = dir.resolve("broken.yaml");
        Files.writeString(broken, "name: b\ndevice: replay:corrupt.rec\n");
        outcome = run("test", broken.toString());
        assertEquals(2, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.err().contains(broken + ":2:1: device: recording " + corrupt + " cannot be replayed: byte "
            + "offset 0: not a tick recording"), outcome.err());
        assertEquals("", outcome.out(), "nothing ran");
    }

    /** At 250 Hz a window from 0.1 ms to 3.9 ms holds no tick; rounded to the ms it read "from 0.000 s to 0.004 s". */
    @Test
    void shouldPrintAWindowAsWrittenWhenItIsFinerThanAMillisecond(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("fine.yaml");
        Files.writeString(script, "name: fine\ndevice: sim\ntiming: lockstep\nrateHz: 250\nduration: 0.1\n"
            + "assertions:\n  - {name: between ticks, from: 0.0001, to: 0.0039, safety: gated}\n"
            + "  - {name: a tick, at: 0.05, safety: gated}\n");
        Outcome outcome = run("test", script.toString());
        assertEquals(1, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().contains("FAIL between ticks: measured no tick from 0.0001 s to 0.0039 s"),
            outcome.out());
        assertTrue(outcome.out().contains("PASS a tick: measured GATED at 0.050 s"), outcome.out());
    }

    /** docs/dil-tests.md: the default name is the file name, not the path as typed; a repeated name stays apart. */
    @Test
    void shouldNameAnUnnamedScriptAfterItsFileName(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("q1.yaml"), "device: sim\ntiming: lockstep\nduration: 0.1\n"
            + "assertions:\n  - {from: 0.01, to: 0.05, contact: false}\n");
        Path other = Files.createDirectory(dir.resolve("other"));
        Path again = Files.copy(script, other.resolve("q1.yaml"));
        Path xml = dir.resolve("r.xml");
        Outcome outcome = run("test", script.toString(), again.toString(), "--junit-xml", xml.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.out().startsWith("== q1.yaml (" + script + "), lockstep"), outcome.out());
        String report = Files.readString(xml);
        assertTrue(report.contains("<testsuite name=\"q1.yaml\" tests=\"1\""), report);
        assertTrue(report.contains("<testsuite name=\"q1.yaml (" + again + ")\" tests=\"1\""), report);
    }

    /** A --record-dir that does not exist yet is created, with its parents, as an output file's folder would be. */
    @Test
    void shouldCreateTheRecordDirWithItsParents(@TempDir Path dir) throws Exception {
        Path script = Files.writeString(dir.resolve("short.yaml"), "device: sim\ntiming: lockstep\nduration: 0.1\n");
        Path records = dir.resolve("build/42/recordings");
        Outcome outcome = run("test", script.toString(), "--record-dir", records.toString());
        assertEquals(0, outcome.code(), outcome.out() + outcome.err());
        assertTrue(Files.size(records.resolve("short.rec")) > 0, "recorded into the new directory");

        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "device: sim\nduration: -1\n");
        assertEquals(2, run("test", bad.toString(), "--record-dir", dir.resolve("never").toString()).code());
        assertTrue(Files.notExists(dir.resolve("never")), "a malformed script leaves nothing behind");

        // A directory that cannot be made: the system's reason (a tester got "(NoSuchFileException /proc/x)").
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Outcome cannot = run("test", script.toString(), "--record-dir", file.resolve("sub").toString());
        assertEquals(2, cannot.code());
        assertTrue(cannot.err().contains("--record-dir " + file.resolve("sub") + ": cannot create the directory "
            + file.resolve("sub")), cannot.err());
        assertFalse(cannot.err().contains("Exception"), cannot.err());
    }

    /**
     * Found by a tester: a script replaying DIR/selfp.rec, run with --record-dir DIR, recorded over the recording it
     * was replaying (exit 0, input lost). Any output over any input is refused before anything runs.
     */
    @Test
    void shouldRefuseToWriteOverAFileTheRunReads(@TempDir Path dir) throws Exception {
        Path make = Files.writeString(dir.resolve("make.yaml"), "device: sim\ntiming: lockstep\nduration: 0.1\n");
        assertEquals(0, run("test", make.toString(), "--record-dir", dir.toString()).code());
        Path recording = Files.copy(dir.resolve("make.rec"), dir.resolve("selfp.rec"));
        byte[] before = Files.readAllBytes(recording);
        Path selfp = Files.writeString(dir.resolve("selfp.yaml"), "device: replay:selfp.rec\ntiming: lockstep\n"
            + "duration: 0.05\n");

        Outcome outcome = run("test", selfp.toString(), "--record-dir", dir.resolve("./").toString());
        assertEquals(2, outcome.code(), outcome.out() + outcome.err());
        assertEquals(1, outcome.err().strip().lines().count(), outcome.err());
        assertTrue(outcome.err().contains(dir.resolve("./").resolve("selfp.rec") + ", which is a file " + selfp
            + " reads (" + recording + "): the run would overwrite its own input"), outcome.err());
        assertArrayEquals(before, Files.readAllBytes(recording), "the input is untouched");
        assertEquals("", outcome.out(), "nothing ran");

        outcome = run("test", make.toString(), "--junit-xml", make.toString());
        assertEquals(2, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.err().contains("--junit-xml " + make + ", which is the test script (" + make + ")"),
            outcome.err());
        Path link = Files.createSymbolicLink(dir.resolve("alias.xml"), dir.resolve("scene-to-be.yaml"));
        Path scened = Files.writeString(dir.resolve("scened.yaml"), "device: sim\nscene: scene-to-be.yaml\n"
            + "timing: lockstep\nduration: 0.05\n");
        Files.copy(Path.of("../scenes/wall.yaml"), dir.resolve("scene-to-be.yaml"));
        outcome = run("test", scened.toString(), "--junit-xml", link.toString());
        assertEquals(2, outcome.code(), outcome.out() + outcome.err());
        assertTrue(outcome.err().contains("--junit-xml " + link + ", which is a file " + scened + " reads"),
            outcome.err());
    }

    @Test
    void shouldRefuseLockstepOffTheEmulatorAndRealTimeChecksInLockstep(@TempDir Path dir) throws Exception {
        Path sim = dir.resolve("sim.yaml");
        Files.writeString(sim, "name: s\ndevice: tcp:127.0.0.1:1\ntiming: lockstep\n");
        Outcome outcome = run("test", sim.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(sim + ":3:1: timing: lockstep needs device: emulator, sim or replay:FILE"),
            outcome.err());

        Path latency = dir.resolve("latency.yaml");
        Files.writeString(latency, "name: s\ndevice: emulator\ntiming: lockstep\nassertions:\n"
            + "  - {linkLatency: {maxMs: 2}}\n");
        outcome = run("test", latency.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(latency + ":5:") && outcome.err().contains("in lockstep time is simulated"),
            outcome.err());

        Path budget = dir.resolve("budget.yaml");
        Files.writeString(budget, "name: s\ndevice: emulator\ntiming: lockstep\nhostTiming: {budgetMs: 20}\n");
        outcome = run("test", budget.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(budget + ":4:1: hostTiming: no meaning in lockstep"), outcome.err());

        Path missing = dir.resolve("missing.yaml");
        Files.writeString(missing, "name: s\nhostTiming: {}\n");
        outcome = run("test", missing.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(missing + ":2:1: hostTiming.budgetMs: missing"), outcome.err());

        Path timing = dir.resolve("timing.yaml");
        Files.writeString(timing, "name: s\ndevice: emulator\ntiming: fast\n");
        outcome = run("test", timing.toString());
        assertEquals(2, outcome.code());
        assertTrue(outcome.err().contains(timing + ":3:") && outcome.err().contains("must be realtime or lockstep"),
            outcome.err());
    }
}
