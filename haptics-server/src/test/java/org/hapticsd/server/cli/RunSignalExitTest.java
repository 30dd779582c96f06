package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
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

    /**
     * `watch` that never connected, stopped by Ctrl-C: a tester's ended with 130 and without the line saying why it
     * never connected. The line is printed before the JVM ends; the code is the signal's, as for `run`.
     */
    @Test
    void shouldSayWhyWatchNeverConnectedWhenStoppedBySignal() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx128m",
            "-cp", System.getProperty("java.class.path"), Main.class.getName(), "watch", "--url",
            "ws://127.0.0.1:" + port + "/ws", "--seconds", "60")
            .redirectErrorStream(true).start();
        StringBuilder all = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                all.append(line).append('\n');
                if (line.startsWith("watch: ")) {
                    // Started: let one attempt fail, then stop it.
                    Thread.sleep(1_500);
                    new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
                }
            }
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the JVM ended");
        assertEquals(130, p.exitValue(), all.toString());
        assertTrue(all.toString().contains("hapticsd: watch: never connected to ws://127.0.0.1:" + port + "/ws: "),
            all.toString());
    }
}
