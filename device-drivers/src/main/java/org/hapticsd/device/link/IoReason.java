package org.hapticsd.device.link;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file operation failed, in the system's words: for the commonest failures (no such file or directory,
 * permission denied) the JDK's exception message is the bare path, which told a tester nothing
 * ({@code --record /proc/x.htr: cannot create: /proc/x.htr}).
 */
public final class IoReason {
    private IoReason() {
    }

    /** The reason of {@code e}, without its path: "no such file or directory", "permission denied", the message. */
    public static String of(IOException e) {
        if (e instanceof FileSystemException fs) {
            return fs.getReason() != null ? fs.getReason()
                : e instanceof NoSuchFileException ? "no such file or directory"
                : e instanceof AccessDeniedException ? "permission denied"
                : e instanceof FileAlreadyExistsException ? "a file of that name exists"
                : e instanceof NotDirectoryException ? "not a directory"
                : e.getClass().getSimpleName();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
