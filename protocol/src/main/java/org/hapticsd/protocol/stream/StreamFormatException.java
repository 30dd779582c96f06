package org.hapticsd.protocol.stream;

/**
 * The one exception every stream decoder and encoder throws on bad input: a truncated or malformed binary message,
 * invalid JSON, a field out of its documented range, or a message over its size limit. The message names the field
 * and, for binary input, its byte offset from the start of the message.
 *
 * <p>Unchecked so a transport pipeline can catch this single type around decode and drop the frame; a checked
 * exception was rejected because record constructors (which also enforce the limits) could not throw it without
 * every caller declaring it.
 */
public final class StreamFormatException extends RuntimeException {
    public StreamFormatException(String message) {
        super(message);
    }

    public StreamFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
