package org.hapticsd.protocol.stream;

/**
 * ACK, server → client: the answer to one COMMAND.
 *
 * @param commandId the COMMAND's id, 0..2^32-1
 * @param accepted  true if the command was carried out
 * @param reason    why it was refused (empty when accepted), for people, not parsed by clients
 */
public record AckMessage(long commandId, boolean accepted, String reason) implements StreamMessage {
    public AckMessage {
        Checks.u32("commandId", commandId);
        Checks.string("reason", reason);
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.ACK;
    }
}
