package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.server.record.Recording;
import org.hapticsd.server.record.TickRecorder;
import org.hapticsd.server.scene.BuiltScene;

/** The {@code --record FILE} option of run and simulate. */
final class Recorders {
    private Recorders() {
    }

    /**
     * Starts a recorder for a loop driving {@code device} (its ratings go in the header), or returns null when no file
     * was asked for. A bad path is misuse (exit 2).
     */
    static TickRecorder open(Path file, BuiltScene scene, int rateHz, DeviceInfo device, boolean waitWhenFull) {
        if (file == null) {
            return null;
        }
        check(file);
        try {
            return TickRecorder.start(file, scene.name(), rateHz, Recording.Ratings.of(device),
                TickRecorder.DEFAULT_RING_BYTES, waitWhenFull);
        } catch (IOException e) {
            throw new UsageException("--record " + file + ": cannot create: "
                + org.hapticsd.device.link.IoReason.of(e));
        }
    }

    /**
     * Refuses a {@code --record} path that cannot be a new file, before the command's slow start (the JIT warm-up, a
     * device's handshake): its folder missing, or a directory (a tester's {@code --record DIR} was refused after
     * 7 s).
     */
    static void check(Path file) {
        if (file == null) {
            return;
        }
        Path folder = file.toAbsolutePath().getParent();
        if (folder != null && !Files.isDirectory(folder)) {
            throw new UsageException("--record " + file + ": directory " + folder + " does not exist");
        }
        if (Files.isDirectory(file)) {
            throw new UsageException("--record " + file + ": is a directory; give a file name");
        }
    }

    /**
     * Finishes the file and says what was recorded, lost ticks included, and how many recorded ticks carried each
     * event: {@code events: CONTACT_BEGAN 2, CONTACT_ENDED 2} (docs/recording.md).
     */
    static void close(TickRecorder recorder, PrintWriter out) {
        if (recorder == null) {
            return;
        }
        try {
            recorder.close();
            out.printf("recorded %d ticks to %s (%d lost)%n", recorder.recordsWritten(), recorder.file(),
                recorder.lostTicks());
            out.printf("events: %s%n", recorder.eventCounts().summary());
        } catch (IOException e) {
            out.printf("recording failed: %s (%d ticks written, %d lost)%n", e.getMessage(), recorder.recordsWritten(),
                recorder.lostTicks());
        }
        out.flush();
    }
}
