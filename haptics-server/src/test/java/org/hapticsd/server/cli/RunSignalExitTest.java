package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * `run` stopped by a signal exits with the shell's code for that signal, 128 + its number: found by a device maker
 * whose SIGTERM gave 130, SIGINT's code. Each run stops the loop and closes the device before it exits.
 */
class RunSignalExitTest {

    @ParameterizedTest
    @CsvSource({"INT, 130", "TERM, 143"})
    void shouldExitWithTheSignalsCode(String signal, int expected) throws Exception {
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "run", "--no-stream",
            "--duration", "120")
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            // The first status line says the loop runs (after the JIT warm-up): the handler is installed by then.
            String line;
            while ((line = out.readLine()) != null && !line.contains(" rate ")) {
                // Start-up lines.
            }
            assertTrue(line != null, "the loop started");
            new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
            while (out.readLine() != null) {
                // The end report.
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM ended");
        assertEquals(expected, p.exitValue());
    }
}
