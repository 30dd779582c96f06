package org.hapticsd.benchmarks.peers;

import java.io.StringReader;
import org.hapticsd.device.DeviceState;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.SceneSpec;
import org.joml.Vector3d;

/**
 * Our engine, built the way the server builds a scene: the scene file's text through {@link SceneLoader} and
 * {@link SceneBuilder}, so the benchmark measures the engine with the settings a user gets (LCP contacts, the
 * default iteration counts, tolerance and correction rate of {@code ContactSettings}). The haptic tool is parked
 * where the scene's mapping puts the device at rest, clear of the bodies, and is never moved.
 */
final class OursEngine implements PeerEngine {
    private final PhysicsWorld world;
    private final Vector3d velocity = new Vector3d();

    OursEngine(PeerScene scene) {
        BuiltScene built;
        SceneSpec spec;
        try {
            spec = new SceneLoader().parse(scene.name() + ".yaml", new StringReader(scene.yaml()));
            built = SceneBuilder.build(spec);
        } catch (SceneException e) {
            throw new IllegalStateException("scene " + scene.name() + " does not load: " + e.getMessage(), e);
        }
        HapticScene haptic = built.haptic();
        world = haptic.world();
        DeviceState rest = new DeviceState();
        double[] p0 = spec.device().initialPositionM();
        rest.positionXM = p0[0];
        rest.positionYM = p0[1];
        rest.positionZM = p0[2];
        Vector3d toolM = new Vector3d();
        Vector3d toolMps = new Vector3d();
        haptic.mapping().deviceToScene(rest, toolM, toolMps);
        world.setToolState(haptic.toolBody(), toolM, toolMps);
    }

    @Override
    public void step() {
        world.step(PeerScene.DT_S);
    }

    @Override
    public void recordContacts(ContactStats stats) {
        stats.step();
        for (int i = 0, n = world.contactCount(); i < n; i++) {
            stats.point(world.contact(i).depthM());
        }
    }

    @Override
    public double maxSpeedMps() {
        double max = 0.0;
        for (int b = 0; b < world.bodyCount(); b++) {
            if (world.bodyType(b) == BodyType.DYNAMIC) {
                max = Math.max(max, world.bodyLinearVelocity(b, velocity).length());
            }
        }
        return max;
    }

    @Override
    public void close() {
        // Heap only.
    }
}
