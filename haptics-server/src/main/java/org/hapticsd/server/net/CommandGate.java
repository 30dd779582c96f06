package org.hapticsd.server.net;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.http.websocketx.BinaryWebSocketFrame;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;
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
 * What clients send: SUBSCRIBE changes the client's rate; COMMAND is checked and, if accepted, enqueued for the
 * loop; every COMMAND gets an ACK, accepted or refused with a reason. A message that does not decode closes the
 * connection (a client that speaks the protocol wrong gets no second guess at the device).
 *
 * <p>Commands need the token whatever the address (compared in constant time). They can stop the device and
 * reset the stop; none can raise a limit: force, stiffness and velocity limits come only from the local scene
 * and command line. Commands this server does not carry out yet are refused with a reason, never ignored.
 */
public final class CommandGate implements StreamRequests {
    private final byte[] token;
    private final CommandQueue commands;
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong malformed = new AtomicLong();

    public CommandGate(String token, CommandQueue commands) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.commands = commands;
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
        AckMessage ack = handle(stream, decoded);
        if (ack != null) {
            byte[] bytes = StreamCodec.encode(ack);
            channel.writeAndFlush(channel.pipeline().get(TcpStreamHandler.class) != null
                ? Unpooled.wrappedBuffer(bytes) : new BinaryWebSocketFrame(Unpooled.wrappedBuffer(bytes)));
        }
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
        AckMessage ack = handle(stream, decoded);
        if (ack != null) {
            channel.writeAndFlush(new TextWebSocketFrame(StreamJson.encodeJson(ack)));
        }
    }

    /** Null for SUBSCRIBE (no answer); an ACK for a COMMAND; a refusal for anything a client may not send. */
    private AckMessage handle(ClientStream stream, StreamMessage message) {
        if (message instanceof SubscribeMessage subscribe) {
            stream.subscribe(subscribe.rateHz());
            return null;
        }
        if (!(message instanceof CommandMessage command)) {
            refused.incrementAndGet();
            return new AckMessage(0, false, message.type() + " is a server-to-client message");
        }
        if (!MessageDigest.isEqual(token, command.authToken().getBytes(StandardCharsets.UTF_8))) {
            refused.incrementAndGet();
            return new AckMessage(command.commandId(), false, "wrong or missing token");
        }
        LoopCommand loopCommand = loopCommand(command.command());
        if (loopCommand == null) {
            refused.incrementAndGet();
            return new AckMessage(command.commandId(), false,
                kind(command.command()) + " is not supported by this server version");
        }
        if (!commands.offer(loopCommand)) {
            refused.incrementAndGet();
            return new AckMessage(command.commandId(), false, "the loop's command queue is full; try again");
        }
        accepted.incrementAndGet();
        return new AckMessage(command.commandId(), true, "");
    }

    private static LoopCommand loopCommand(Command command) {
        if (command instanceof Command.EmergencyStop) {
            return LoopCommand.EMERGENCY_STOP;
        }
        if (command instanceof Command.ResetStop) {
            return LoopCommand.RESET_SAFETY;
        }
        return null;
    }

    private static String kind(Command command) {
        return command.getClass().getSimpleName();
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
