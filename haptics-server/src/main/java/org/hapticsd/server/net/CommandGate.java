package org.hapticsd.server.net;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.hapticsd.protocol.stream.AckMessage;
import org.hapticsd.protocol.stream.Command;
import org.hapticsd.protocol.stream.CommandMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamFormatException;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopCommand;

/**
 * What clients send: SUBSCRIBE changes the client's rate; COMMAND is checked against the token and handed to the
 * {@link CommandExecutor}; every COMMAND gets exactly one ACK, accepted or refused with a reason, in the form of the
 * connection (whatever form the COMMAND came in). A COMMAND that does not decode but whose id can be read (a binary
 * header of type COMMAND and its u32 id; a JSON object of type COMMAND with a numeric commandId) is refused with the
 * decoder's reason; any other message that does not decode, and any message of the server's direction, is dropped
 * and counted (spec section 1 and 3). A reason longer than the protocol's 1024-byte string is cut at a character.
 *
 * <p>Commands need the token whatever the address (compared in constant time). None can raise a limit: force,
 * stiffness and velocity limits come only from the local scene and command line, which the executor enforces.
 */
public final class CommandGate implements StreamRequests {
    private static final int COMMAND_TYPE = 0x82;
    private static final ObjectMapper JSON = new ObjectMapper();
    /** For {@link #topLevelCommandId}: no nesting limit (its parse skips nested values without recursing). */
    private static final com.fasterxml.jackson.core.JsonFactory DEEP = com.fasterxml.jackson.core.JsonFactory.builder()
        .streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints.builder()
            .maxNestingDepth(Integer.MAX_VALUE).build())
        .build();
    private final byte[] token;
    private final CommandExecutor executor;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();

    public CommandGate(String token, CommandExecutor executor) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.executor = executor;
    }

    /** A gate whose only commands are emergency stop and reset stop, straight onto the loop's queue. */
    public CommandGate(String token, CommandQueue commands) {
        this(token, command -> CompletableFuture.completedFuture(stopOnly(command, commands)));
    }

    @Override
    public CommandExecutor commands() {
        return executor;
    }

    @Override
    public void onBinary(ClientStream stream, byte[] message, Channel channel) {
        StreamMessage decoded;
        try {
            decoded = StreamCodec.decode(message);
        } catch (StreamFormatException e) {
            malformed(stream, channel, e.getMessage());
            long id = binaryCommandId(message);
            if (id >= 0) {
                ordered(stream, channel).accept(new AckMessage(id, false, fit("MALFORMED: " + e.getMessage())));
            }
            return;
        }
        handle(stream, decoded, channel);
    }

    @Override
    public void onJson(ClientStream stream, String message, Channel channel) {
        StreamMessage decoded;
        try {
            decoded = StreamJson.decodeJson(message);
        } catch (StreamFormatException e) {
            malformed(stream, channel, e.getMessage());
            long id = jsonCommandId(message);
            if (id >= 0) {
                ordered(stream, channel).accept(new AckMessage(id, false, fit("MALFORMED: " + e.getMessage())));
            }
            return;
        }
        handle(stream, decoded, channel);
    }

    /**
     * Counts a message dropped as malformed and, the first time on this connection, logs why (the client gets no
     * ACK for it unless it is a COMMAND whose id can be read, section 3).
     */
    private void malformed(ClientStream stream, Channel channel, String reason) {
        malformed.incrementAndGet();
        if (stream.firstMalformed()) {
            ClientFaultLog.SHARED.report(channel, "dropped a malformed message: " + reason + " (later ones on this "
                + "connection are dropped without a line)");
        }
    }

    /**
     * Reserves the next place in this client's ACKs (they leave in the order its COMMANDs came, whichever is carried
     * out first) and returns what fills it.
     */
    private static Consumer<AckMessage> ordered(ClientStream stream, Channel channel) {
        CompletableFuture<AckMessage> slot = new CompletableFuture<>();
        stream.queueAck(slot, send(stream, channel));
        return slot::complete;
    }

    /** Sends an ACK in the connection's form (its reason already {@link #fit}). */
    private static Consumer<AckMessage> send(ClientStream stream, Channel channel) {
        return ack -> {
            switch (stream.kind()) {
                case TCP -> channel.writeAndFlush(Unpooled.wrappedBuffer(StreamCodec.encode(ack)));
                case WEBSOCKET_BINARY -> channel.writeAndFlush(
                    new BinaryWebSocketFrame(Unpooled.wrappedBuffer(StreamCodec.encode(ack))));
                case WEBSOCKET_JSON -> channel.writeAndFlush(new TextWebSocketFrame(StreamJson.encodeJson(ack)));
            }
        };
    }

    /** {@code reason} in at most {@link StreamProtocol#MAX_STRING_BYTES} UTF-8 bytes, cut before a character. */
    static String fit(String reason) {
        byte[] utf8 = reason.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= StreamProtocol.MAX_STRING_BYTES) {
            return reason;
        }
        String ellipsis = "…";
        int budget = StreamProtocol.MAX_STRING_BYTES - ellipsis.getBytes(StandardCharsets.UTF_8).length;
        int end = 0;
        int bytes = 0;
        while (end < reason.length()) {
            int cp = reason.codePointAt(end);
            int size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
            if (bytes + size > budget) {
                break;
            }
            bytes += size;
            end += Character.charCount(cp);
        }
        return reason.substring(0, end) + ellipsis;
    }

    /** The id of a binary COMMAND whose header and id can be read, else −1. */
    private static long binaryCommandId(byte[] message) {
        if (message.length < StreamProtocol.HEADER_BYTES + 4 || message[0] != StreamProtocol.VERSION
                || (message[1] & 0xFF) != COMMAND_TYPE) {
            return -1;
        }
        return (message[4] & 0xFFL) | (message[5] & 0xFFL) << 8 | (message[6] & 0xFFL) << 16
            | (message[7] & 0xFFL) << 24;
    }

    /** The commandId of a JSON object of type COMMAND, when it is a whole number in u32 range, else −1. */
    private static long jsonCommandId(String message) {
        try {
            JsonNode tree = JSON.readTree(message);
            JsonNode id = tree == null ? null : tree.get("commandId");
            if (tree != null && "COMMAND".equals(tree.path("type").asText()) && id != null && id.canConvertToLong()
                    && id.isIntegralNumber() && id.asLong() >= 0 && id.asLong() <= 0xFFFF_FFFFL) {
                return id.asLong();
            }
        } catch (java.io.IOException | RuntimeException notJson) {
            // Not a JSON tree (too deep, or broken after its first fields): its top-level fields may still say
            // which COMMAND it was, read one by one below.
            return topLevelCommandId(message);
        }
        return -1;
    }

    /**
     * The {@code commandId} of a message whose top level reads as a COMMAND up to where it breaks: a streaming
     * parse of the top-level fields that skips nested values without a depth limit (it does not recurse), so a
     * COMMAND with a readable id still gets its MALFORMED ACK however deep or broken the rest is.
     */
    private static long topLevelCommandId(String message) {
        String type = null;
        long id = -1;
        try (com.fasterxml.jackson.core.JsonParser parser = DEEP.createParser(message)) {
            if (parser.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return -1;
            }
            while (parser.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                com.fasterxml.jackson.core.JsonToken value = parser.nextToken();
                if ("type".equals(field) && value == com.fasterxml.jackson.core.JsonToken.VALUE_STRING) {
                    type = parser.getText();
                } else if ("commandId".equals(field) && value == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT
                    && parser.getNumberType() != com.fasterxml.jackson.core.JsonParser.NumberType.BIG_INTEGER) {
                    long candidate = parser.getLongValue();
                    id = candidate >= 0 && candidate <= 0xFFFF_FFFFL ? candidate : -1;
                } else {
                    parser.skipChildren();
                }
                if ("COMMAND".equals(type) && id >= 0) {
                    return id;
                }
            }
        } catch (java.io.IOException | RuntimeException broken) {
            // Broken before both fields were read.
        }
        return "COMMAND".equals(type) ? id : -1;
    }

    /** SUBSCRIBE gets no answer; a COMMAND gets an ACK, now or when the executor is done, in its place. */
    private void handle(ClientStream stream, StreamMessage message, Channel channel) {
        if (message instanceof SubscribeMessage subscribe) {
            stream.subscribe(subscribe.rateHz());
            return;
        }
        if (!(message instanceof CommandMessage command)) {
            // A message of the server's direction (HELLO, ACK, ...): refused as malformed, section 3; no ACK, as it
            // has no command id to answer.
            malformed(stream, channel, "a " + message.getClass().getSimpleName().replace("Message", "").toUpperCase(
                java.util.Locale.ROOT) + " message, which only the server sends");
            return;
        }
        Consumer<AckMessage> reply = ordered(stream, channel);
        if (!MessageDigest.isEqual(token, command.authToken().getBytes(StandardCharsets.UTF_8))) {
            refused.incrementAndGet();
            reply.accept(new AckMessage(command.commandId(), false, fit("TOKEN: wrong or missing token")));
            return;
        }
        CompletionStage<String> outcome;
        try {
            outcome = executor.execute(command.command());
        } catch (RuntimeException e) {
            outcome = CompletableFuture.completedFuture("FAILED: the server failed to carry it out: " + e.getMessage());
        }
        outcome.whenComplete((reason, error) -> {
            String why = error != null ? "FAILED: the server failed to carry it out: " + error.getMessage() : reason;
            if (why == null) {
                accepted.incrementAndGet();
                reply.accept(new AckMessage(command.commandId(), true, ""));
            } else {
                refused.incrementAndGet();
                reply.accept(new AckMessage(command.commandId(), false, fit(why)));
            }
        });
    }

    private static String stopOnly(Command command, CommandQueue commands) {
        LoopCommand loopCommand = command instanceof Command.EmergencyStop ? LoopCommand.EMERGENCY_STOP
            : command instanceof Command.ResetStop ? LoopCommand.RESET_SAFETY : null;
        if (loopCommand == null) {
            return command.getClass().getSimpleName() + " is not supported by this server";
        }
        return commands.offer(loopCommand) ? null : "the loop's command queue is full; try again";
    }

    public long accepted() {
        return accepted.get();
    }

    public long refused() {
        return refused.get();
    }

    public long malformed() {
        return malformed.get();
    }
}
