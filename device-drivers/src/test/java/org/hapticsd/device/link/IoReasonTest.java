package org.hapticsd.device.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** The system's reason for a failed file operation, never the bare path the JDK gives (a tester's "/proc/x.htr"). */
class IoReasonTest {
    @Test
    void shouldSayWhyNotWhere() {
        assertEquals("no such file or directory", IoReason.of(new NoSuchFileException("/proc/x.htr")));
        assertEquals("permission denied", IoReason.of(new AccessDeniedException("/root/x")));
        assertEquals("Read-only file system", IoReason.of(new FileSystemException("/x", null, "Read-only file system")));
        assertEquals("No space left on device", IoReason.of(new IOException("No space left on device")));
    }
}
