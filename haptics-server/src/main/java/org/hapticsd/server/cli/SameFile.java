package org.hapticsd.server.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether an output path is a file a command reads, so that writing it would destroy it: one test for {@code run},
 * {@code simulate} and {@code test}.
 */
final class SameFile {
    private SameFile() {
    }

    /**
     * Whether two paths name one file: {@link Files#isSameFile} when both exist (it sees links), else their
     * absolute paths with symbolic links resolved as far as the files' folders exist.
     */
    static boolean test(Path a, Path b) {
        if (Files.exists(a) && Files.exists(b)) {
            try {
                return Files.isSameFile(a, b);
            } catch (IOException e) {
                // Unreadable metadata: fall back on the paths.
            }
        }
        return resolved(a).equals(resolved(b));
    }

    /** The absolute, normalized path, symbolic links resolved for the deepest part of it that exists. */
    private static Path resolved(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
        } catch (IOException e) {
            return absolute;
        }
    }
}
