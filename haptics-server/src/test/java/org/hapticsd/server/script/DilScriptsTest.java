package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.hapticsd.device.link.PseudoTerminalPair;
import org.hapticsd.server.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shipped device-in-the-loop scripts (tests/dil/*.yaml) run as CI runs them: through {@code hapticsd test},
 * in real time, against the emulator on a pseudo-terminal pair made by socat (.ci/run installs it), with JUnit XML
 * written to target/dil-junit.xml and every tick recorded under target/dil-recordings/ for a failure's post-mortem.
 * Every assertion of every script must pass.
 */
class DilScriptsTest {
    private static final Path DIL = Path.of("..", "tests", "dil");

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void shouldPassEveryShippedDeviceInTheLoopScriptOverAPseudoTerminal() throws IOException {
        assertTrue(PseudoTerminalPair.isAvailable(), "socat is required (.ci/run installs the Debian package)");
        List<String> scripts;
        try (Stream<Path> files = Files.list(DIL)) {
            scripts = files.filter(f -> f.toString().endsWith(".yaml")).sorted().map(Path::toString).toList();
        }
        // press-wall, unplug, garbage and stall: the four situations the device link must handle.
        assertEquals(4, scripts.size(), scripts.toString());
        for (String script : scripts) {
            assertTrue(Files.readString(Path.of(script)).contains("transport: pty"), script + " must use the pty");
        }
        Path xml = Path.of("target", "dil-junit.xml");
        Path recordings = Files.createDirectories(Path.of("target", "dil-recordings"));
        String[] args = Stream.concat(Stream.of("test", "--junit-xml", xml.toString(), "--record-dir",
                recordings.toString()), scripts.stream())
            .toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        assertEquals(0, code, out + "\n" + err);
        assertFalse(out.toString().contains("FAIL"), out.toString());
        String junit = Files.readString(xml);
        assertEquals(4, junit.split("<testsuite ", -1).length - 1, junit);
        assertFalse(junit.contains("<failure"), junit);
    }
}
