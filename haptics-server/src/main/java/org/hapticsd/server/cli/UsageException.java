package org.hapticsd.server.cli;

/** The user asked for something that cannot be done as asked (bad file, bad device name): exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
