package org.hapticsd.server;

import java.nio.file.Path;
import org.agrona.concurrent.SystemNanoClock;
import org.hapticsd.device.sim.SimulatedDevice;
import org.hapticsd.server.loop.LoopRunner;
import org.hapticsd.server.loop.WaitStrategies;
import org.hapticsd.server.net.LoopStatsBoard;
import org.hapticsd.server.net.StreamServer;
import org.hapticsd.server.net.StreamServerConfig;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;

/**
 * A test's server, as {@code run} starts it on its defaults: a scene on the simulated stylus, the loop at 1 kHz in real
 * time (hybrid wait) and the stream service with its commands, on 127.0.0.1. The scene is built by a factory, which
 * RESET_SCENE calls again. {@link #close()} stops the loop, then the server.
 */
public final class LiveServer implements AutoCloseable {
    private final LoopAssembly assembly;
    private final StreamService service;
    private final LoopRunner runner;
    private final StreamServerConfig config;

    private LiveServer(LoopAssembly assembly, StreamService service, LoopRunner runner, StreamServerConfig config) {
        this.assembly = assembly;
        this.service = service;
        this.runner = runner;
        this.config = config;
    }

    /**
     * Builds the scene, opens the stylus, binds the ports of {@code config} and starts the loop.
     *
     * @param sceneDir where LOAD_SCENE may look, or null to refuse it
     */
    public static LiveServer start(ServerCommands.SceneFactory scene, StreamServerConfig config, Path sceneDir)
            throws Exception {
        LiveServer server = open(scene, config, sceneDir);
        server.runner.start();
        return server;
    }

    /** {@link #start} with the scene of {@code file}. */
    public static LiveServer start(Path file, StreamServerConfig config, Path sceneDir) throws Exception {
        return start(() -> SceneBuilder.build(new SceneLoader().load(file)), config, sceneDir);
    }

    /** {@link #start} with the embedded default scene (scenes/wall.yaml). */
    public static LiveServer startEmbedded(StreamServerConfig config, Path sceneDir) throws Exception {
        return start(() -> SceneBuilder.build(new SceneLoader().loadEmbedded()), config, sceneDir);
    }

    /** As {@link #start}, with the loop not started yet: {@link #startLoop()} starts it. */
    public static LiveServer open(ServerCommands.SceneFactory scene, StreamServerConfig config, Path sceneDir)
            throws Exception {
        org.hapticsd.server.scene.BuiltScene built = scene.build();
        SimulatedDevice stylus = built.newSimulatedDevice();
        stylus.open();
        LoopAssembly assembly = new LoopAssembly(built, stylus, 1000, SystemNanoClock.INSTANCE);
        StreamService service = StreamService.start(assembly, config, new LoopStatsBoard(), scene, sceneDir);
        assembly.loop().setTickSink(service.events());
        LoopRunner runner = new LoopRunner(assembly.loop(), 1000, WaitStrategies.HYBRID, SystemNanoClock.INSTANCE);
        return new LiveServer(assembly, service, runner, config);
    }

    public void startLoop() {
        runner.start();
    }

    public LoopAssembly assembly() {
        return assembly;
    }

    public StreamService service() {
        return service;
    }

    public StreamServer server() {
        return service.server();
    }

    /** The configuration the server was started with (its token, among others). */
    public StreamServerConfig config() {
        return config;
    }

    /** {@code ws://127.0.0.1:PORT/ws}. */
    public String webSocketUrl() {
        return "ws://127.0.0.1:" + server().httpPort() + "/ws";
    }

    @Override
    public void close() {
        runner.close();
        service.close();
    }
}
