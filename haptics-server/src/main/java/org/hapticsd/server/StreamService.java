package org.hapticsd.server;

import java.io.IOException;
import java.nio.file.Path;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.net.CommandGate;
import org.hapticsd.server.net.EventLog;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.SceneBoard;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamServerConfig;

/**
 * The stream side of a running server, wired to one {@link LoopAssembly}: the scene board clients read, the event
 * log the loop feeds, the commands clients may send, and the Netty server. What {@code run} starts, and what tests
 * and benchmarks start to get the same server.
 *
 * <p>The caller makes {@link #events()} (alone, or teed with a recorder) the loop's tick sink before the loop
 * starts.
 */
public final class StreamService implements AutoCloseable {
    private final EventLog events;
    private final SceneBoard scenes;
    private final ServerCommands commands;
    private final StreamServer server;

    private StreamService(EventLog events, SceneBoard scenes, ServerCommands commands, StreamServer server) {
        this.events = events;
        this.scenes = scenes;
        this.commands = commands;
        this.server = server;
    }

    /**
     * Binds the ports. Call before the loop starts.
     *
     * @param rebuild  builds the first scene again, for RESET_SCENE
     * @param sceneDir where LOAD_SCENE may look, or null to refuse it
     * @throws IOException naming the address and port, or the TLS file, that cannot be used
     */
    public static StreamService start(LoopAssembly assembly, StreamServerConfig config, LoopStatsBoard stats,
                                      ServerCommands.SceneFactory rebuild, Path sceneDir) throws IOException {
        EventLog events = new EventLog(assembly.loop().periodNs());
        SceneBoard board = new SceneBoard(
            ServerCommands.firstEpoch(assembly.scene(), assembly.snapshots(), assembly.rateHz(), stats));
        ServerCommands commands = new ServerCommands(assembly.commands(), board, stats, assembly.rateHz(),
            assembly.scene(), rebuild, sceneDir, assembly.device() instanceof SimulatedDevice,
            assembly.device().info());
        try {
            StreamServer server = new StreamServer(config, board, new CommandGate(config.token(), commands), events,
                assembly.loop().periodNs()).start();
            return new StreamService(events, board, commands, server);
        } catch (IOException | RuntimeException e) {
            commands.close();
            throw e;
        }
    }

    public EventLog events() {
        return events;
    }

    /** The scene the loop runs now, with the exchange it publishes into (changes on RESET_SCENE, LOAD_SCENE). */
    public SceneBoard scenes() {
        return scenes;
    }

    public StreamServer server() {
        return server;
    }

    /** The commands clients send, carried out; also what {@code run --reload} asks to reload the scene. */
    public ServerCommands commands() {
        return commands;
    }

    /**
     * The loop has stopped: the events still pending go out ({@link EventLog#finish()}) and every client gets its
     * last STATE and events before {@link #close()} closes the connections (at most half a second).
     */
    public void finish() {
        events.finish();
        server.flushClients(500);
    }

    @Override
    public void close() {
        server.close();
        commands.close();
    }
}
