package org.hapticsd.protocol.stream;

/**
 * COMMAND, client → server. Answered by exactly one ACK with the same id.
 *
 * @param commandId chosen by the client (0..2^32-1) to match the ACK
 * @param authToken the token the server checks before acting (may be empty if the server needs none)
 * @param command   what to do
 */
public record CommandMessage(long commandId, String authToken, Command command) implements StreamMessage {
    public CommandMessage {
        Checks.u32("commandId", commandId);
        Checks.string("authToken", authToken);
        Checks.notNull("command", command);
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.COMMAND;
    }
}
