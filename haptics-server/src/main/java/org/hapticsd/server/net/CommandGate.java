package org.hapticsd.server.net;

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
import org.hapticsd.protocol.stream.SubscribeMessage;
import org.hapticsd.server.loop.CommandQueue;
import org.hapticsd.server.loop.LoopCommand;

/**
 * What clients send: SUBSCRIBE changes the client's rate; COMMAND is checked against the token and handed to the
 * {@link CommandExecutor}; every COMMAND gets an ACK, accepted or refused with a reason. A message that does not
 * decode is dropped and counted: its command id may be unreadable, so it cannot be answered.
 *
 * <p>Commands need the token whatever the address (compared in constant time). None can raise a limit: force,
 * stiffness and velocity limits come only from the local scene and command line, which the executor enforces.
 */
public final class CommandGate implements StreamRequests {
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
    public void onBinary(ClientStream stream, byte[] message, Channel channel) {
        StreamMessage decoded;
        try {
            decoded = StreamCodec.decode(message);
        } catch (StreamFormatException e) {
            malformed.incrementAndGet();
            return;
        }
        handle(stream, decoded, ack -> {
            byte[] bytes = StreamCodec.encode(ack);
            channel.writeAndFlush(channel.pipeline().get(TcpStreamHandler.class) != null
                ? Unpooled.wrappedBuffer(bytes) : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(bytes)));
        });
    }

    @Override
    public void onJson(ClientStream stream, String message, Channel channel) {
        StreamMessage decoded;
        try {
            decoded = StreamJson.decodeJson(message);
        } catch (StreamFormatException e) {
            malformed.incrementAndGet();
            return;
        }
        handle(stream, decoded, ack -> channel.writeAndFlush(new TextWebSocketFrame(StreamJson.encodeJson(ack))));
    }

    /** SUBSCRIBE gets no answer; a COMMAND gets an ACK through {@code reply}, now or when the executor is done. */
    private void handle(ClientStream stream, StreamMessage message, Consumer<AckMessage> reply) {
        if (message instanceof SubscribeMessage subscribe) {
            stream.subscribe(subscribe.rateHz());
            return;
        }
        if (!(message instanceof CommandMessage command)) {
            refused.incrementAndGet();
            reply.accept(new AckMessage(0, false, message.type() + " is a server-to-client message"));
            return;
        }
        if (!MessageDigest.isEqual(token, command.authToken().getBytes(StandardCharsets.UTF_8))) {
            refused.incrementAndGet();
            reply.accept(new AckMessage(command.commandId(), false, "wrong or missing token"));
            return;
        }
        CompletionStage<String> outcome;
        try {
            outcome = executor.execute(command.command());
        } catch (RuntimeException e) {
            outcome = CompletableFuture.completedFuture("the server failed to carry it out: " + e.getMessage());
        }
        outcome.whenComplete((reason, error) -> {
            String why = error != null ? "the server failed to carry it out: " + error.getMessage() : reason;
            if (why == null) {
                accepted.incrementAndGet();
                reply.accept(new AckMessage(command.commandId(), true, ""));
            } else {
                refused.incrementAndGet();
                reply.accept(new AckMessage(command.commandId(), false, why));
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
