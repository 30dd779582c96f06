package org.hapticsd.server.loop;

import org.agrona.concurrent.CachedNanoClock;
import org.hapticsd.device.HapticDevice;
import org.hapticsd.server.LoopAssembly;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;

/** Builds a loop on the embedded default scene and drives it tick by tick on simulated time. */
final class LoopFixture {
    static final long PERIOD_NS = 1_000_000L;

    final BuiltScene scene;
    final HapticDevice device;
    final LoopAssembly assembly;
    final HapticLoop loop;
    final CachedNanoClock stageTimer = new CachedNanoClock();
    long nowNs;

    LoopFixture(HapticDevice device) throws Exception {
        this(defaultScene(), device);
    }

    LoopFixture(BuiltScene scene, HapticDevice device) throws Exception {
        this.scene = scene;
        this.device = device;
        device.open();
        this.assembly = new LoopAssembly(scene, device, 1000, stageTimer);
        this.loop = assembly.loop();
    }

    static BuiltScene defaultScene() throws Exception {
        return SceneBuilder.build(new SceneLoader().loadEmbedded());
    }

    /** The simulated stylus of a scene file, following that scene's hand path. */
    static LoopFixture withSimulatedStylus(java.nio.file.Path sceneFile) throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().load(sceneFile));
        return new LoopFixture(scene, scene.newSimulatedDevice());
    }

    /** The simulated stylus of the default scene, following the scene's hand path. */
    static LoopFixture withSimulatedStylus() throws Exception {
        BuiltScene scene = defaultScene();
        return new LoopFixture(scene, scene.newSimulatedDevice());
    }

    void tick() {
        loop.tick(nowNs);
        loop.afterTick(false);
        nowNs += PERIOD_NS;
        stageTimer.advance(1_000);
    }

    void ticks(int count) {
        for (int i = 0; i < count; i++) {
            tick();
        }
    }

    LoopSnapshot snapshot() {
        return loop.lastSnapshot();
    }
}
