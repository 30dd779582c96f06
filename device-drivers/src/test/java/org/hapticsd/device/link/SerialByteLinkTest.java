package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a serial port that cannot be opened says: the system's reason in words, not jSerialComm's internals. */
class SerialByteLinkTest {

    /**
     * A tester's second host on a pty another host had open read "cannot open (error 11 at 536; does the port exist
     * and may this user open it?)": the 11 is the lock the first holds, the 536 a line of jSerialComm's C source.
     */
    @Test
    void shouldSayAnotherProcessHasThePortOpen(@TempDir Path dir) throws Exception {
        assertTrue(PseudoTerminalPair.isAvailable(), "socat is required (.ci/run installs the Debian package)");
        try (PseudoTerminalPair pair = PseudoTerminalPair.start(dir)) {
            // Another process holds the port's lock, as a first host does (util-linux flock(1): the same flock(2)).
            Process holder = new ProcessBuilder("flock", pair.hostPath().toString(), "sleep", "30").start();
            try {
                IOException e = null;
                for (int attempt = 0; attempt < 100 && e == null; attempt++) {
                    try {
                        SerialByteLink.open(pair.hostPath().toString(), 1_000_000, 20).close();
                        Thread.sleep(50); // flock(1) has not taken the lock yet
                    } catch (IOException refused) {
                        e = refused;
                    }
                }
                assertEquals("serial:" + pair.hostPath() + ":1000000: cannot open: another process has the port open "
                    + "(it holds the port's lock) (errno 11)", e == null ? "never refused" : e.getMessage());
            } finally {
                holder.destroyForcibly().waitFor();
            }
        }
    }

    @Test
    void shouldSayAPortThatDoesNotExistIsNotThere(@TempDir Path dir) {
        String port = dir.resolve("no-such-tty").toString();
        IOException e = assertThrows(IOException.class, () -> SerialByteLink.open(port, 115_200, 20).close());
        assertTrue(e.getMessage().startsWith("serial:" + port + ":115200: "), e.getMessage());
        assertFalse(e.getMessage().contains("Unable to create"), "jSerialComm's words: " + e.getMessage());
        assertFalse(e.getMessage().matches(".*error \\d+ at \\d+.*"), "jSerialComm's location: " + e.getMessage());
    }

    @Test
    void shouldNameTheCommonErrorsAndNumberTheRest() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"));
        assertEquals("permission denied (is this user in the port's group, e.g. dialout?) (errno 13)",
            SerialByteLink.reason(13));
        assertEquals("system error 999", SerialByteLink.reason(999));
    }
}
