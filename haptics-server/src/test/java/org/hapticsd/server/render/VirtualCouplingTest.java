package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link VirtualCoupling} on a world of its own, 1 kHz: free space renders nothing once the proxy has caught up, at
 * rest or at a constant speed; a static wall stops the proxy and the hand feels exactly the coupling's spring; the
 * momentum the hand gives through the coupling is the momentum the proxy and the bodies it pushes end up with
 * (Newton's third law, in zero gravity); a hand that jumps through a thin plate leaves the proxy on its side; and the
 * explicit step's bound {@code k·Δt² + 2·b·Δt < 4·m} is where a free proxy stops being stable.
 */
class VirtualCouplingTest {

    private static final double DT_S = 0.001;
    private static final double K_NPM = 1000.0;
    private static final double B_NSPM = 0.3;
    private static final double MASS_KG = 0.002;
    private static final double RADIUS_M = 0.005;

    private record Rig(PhysicsWorld world, int proxy, VirtualCoupling coupling) {
    }

    /** The proxy as the scene builder makes it: rotation locked, no farther than its radius a step. */
    private static Rig rig(PhysicsWorld world, double k, double b, Vector3d startM) {
        Rig r = rigWithoutStepLimit(world, k, b, startM);
        world.setMaxStepDistance(r.proxy, RADIUS_M);
        return r;
    }

    private static Rig rigWithoutStepLimit(PhysicsWorld world, double k, double b, Vector3d startM) {
        int proxy = world.addDynamicBody("tool", new SphereShape(RADIUS_M), startM, new Quaterniond(), MASS_KG,
            SolidInertia.sphere(MASS_KG, RADIUS_M, new Matrix3d()), Material.DEFAULT);
        world.lockRotation(proxy);
        return new Rig(world, proxy, new VirtualCoupling(proxy, k, b, MASS_KG));
    }

    /** One tick: the coupling's force from the hand, then the step. */
    private static void tick(Rig r, Vector3d handM, Vector3d handMps) {
        r.coupling.beforeStep(r.world, handM, handMps, true);
        r.world.step(DT_S);
    }

    @Test
    void theSceneBuilderMakesTheProxyAsDocumented() throws Exception {
        BuiltScene built = SceneBuilder.build(new SceneLoader().load(Path.of("../scenes/coupling.yaml")));
        PhysicsWorld world = built.haptic().world();
        int tool = built.haptic().toolBody();
        assertEquals(K_NPM, built.haptic().coupling().stiffnessNpm());
        assertEquals(B_NSPM, built.haptic().coupling().dampingNspm());
        assertEquals(MASS_KG, world.bodyMassKg(tool));
        assertEquals(BodyType.DYNAMIC, world.bodyType(tool));
        assertTrue(world.isRotationLocked(tool), "slides, never rolls");
        assertEquals(RADIUS_M, world.maxStepDistanceM(tool), "no farther than its radius a step");
        for (int body = 0; body < world.bodyCount(); body++) {
            if (body != tool) {
                assertEquals(ContactMode.LCP, world.contactMode(tool, body), world.bodyName(body));
            }
        }
        // Where the stylus starts, device.initialPosition through the identity mapping.
        assertEquals(new Vector3d(-0.05, 0.0, 0.02), world.bodyPosition(tool, new Vector3d()));
    }

    @Test
    void freeSpaceRendersNothingAtRestOrAtAConstantSpeed() {
        Rig r = rig(new PhysicsWorld(ContactSettings.defaults()), K_NPM, B_NSPM, new Vector3d(0.3, 0.0, 0.0));
        Vector3d handM = new Vector3d(0.0, 0.0, 0.1);
        Vector3d handMps = new Vector3d(0.1, 0.0, 0.0);
        // The first tick puts the proxy at the hand, moving with it: the coupling starts unstretched, under gravity.
        tick(r, handM, handMps);
        assertEquals(0.0, r.coupling.forceN().length(), 0.0, "placed at the hand");
        for (int i = 0; i < 2000; i++) {
            handM.fma(DT_S, handMps);
            tick(r, handM, handMps);
            assertTrue(r.coupling.forceN().length() < 1e-9, "tick " + i + ": " + r.coupling.forceN());
        }
        // The step moved the proxy on to where the hand will be next tick.
        assertEquals(handM.x + DT_S * handMps.x, r.world.bodyPosition(r.proxy, new Vector3d()).x, 1e-9,
            "kept up with the hand");
        // The hand stops dead: the proxy rings against the spring and settles; the damper takes the energy out.
        handMps.zero();
        double first = 0.0;
        for (int i = 0; i < 200; i++) {
            tick(r, handM, handMps);
            first = Math.max(first, r.coupling.forceN().length());
        }
        assertTrue(first > 0.05, "it did ring: " + first + " N");
        for (int i = 0; i < 1000; i++) {
            tick(r, handM, handMps);
        }
        assertTrue(r.coupling.forceN().length() < 1e-6, "settled: " + r.coupling.forceN());
    }

    @Test
    void aStaticWallStopsTheProxyAndTheHandFeelsTheCouplingsSpring() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        // The floor's surface at z = 0; its contacts with the proxy are LCP (the default mode).
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond(),
            Material.DEFAULT);
        Rig r = rig(world, K_NPM, B_NSPM, new Vector3d());
        Vector3d handM = new Vector3d(0.0, 0.0, 0.02);
        Vector3d still = new Vector3d();
        tick(r, handM, still);
        // Down at 5 cm/s to 3 mm below where the proxy rests (centre at z = radius).
        Vector3d handMps = new Vector3d(0.0, 0.0, -0.05);
        double restZ = RADIUS_M;
        while (handM.z > restZ - 0.003) {
            handM.fma(DT_S, handMps);
            tick(r, handM, handMps);
            assertTrue(r.world.bodyPosition(r.proxy, new Vector3d()).z > restZ - 1e-4, "the floor stops it");
        }
        for (int i = 0; i < 1000; i++) {
            tick(r, handM, still);
        }
        Vector3d proxyM = r.world.bodyPosition(r.proxy, new Vector3d());
        // A contact rests at most the contact tolerance deep (0.2 mm), as deep as it was found.
        double toleranceM = ContactSettings.defaults().contactToleranceM();
        assertTrue(proxyM.z <= restZ && proxyM.z >= restZ - toleranceM, "resting on the floor: " + proxyM.z);
        assertEquals(K_NPM * (proxyM.z - handM.z), r.coupling.forceN().z(), 1e-9, "k·(x_proxy − x_hand)");
        assertEquals(K_NPM * 0.003, r.coupling.forceN().z(), 0.1, "about 3 N up");
        assertEquals(0.0, Math.hypot(r.coupling.forceN().x(), r.coupling.forceN().y()), 1e-12, "straight up");
    }

    @Test
    void aHandThatJumpsThroughAThinPlateLeavesTheProxyOnItsSide() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        // A 2 mm plate, its faces at z = -0.001 and 0.001.
        world.addStaticBody("plate", new BoxShape(0.1, 0.1, 0.001), new Vector3d(), new Quaterniond(),
            Material.DEFAULT);
        Rig r = rig(world, K_NPM, B_NSPM, new Vector3d());
        Vector3d still = new Vector3d();
        tick(r, new Vector3d(0.0, 0.0, 0.02), still);
        // A glitch puts the hand 12 cm lower in one tick, moving at 120 m/s: F_c = 120 + 36 N, 78 m/s on 2 g in one
        // step, which would carry a free proxy 7.8 cm, through the plate.
        tick(r, new Vector3d(0.0, 0.0, -0.1), new Vector3d(0.0, 0.0, -120.0));
        for (int i = 0; i < 500; i++) {
            tick(r, new Vector3d(0.0, 0.0, -0.1), still);
            assertTrue(r.world.bodyPosition(r.proxy, new Vector3d()).z > 0.0, "tick " + i + ": on its side");
        }
        Vector3d proxyM = r.world.bodyPosition(r.proxy, new Vector3d());
        // Found deeper than the contact tolerance (0.2 mm), a contact is pushed out to it.
        double toleranceM = ContactSettings.defaults().contactToleranceM();
        assertEquals(0.001 + RADIUS_M - toleranceM, proxyM.z, 1e-6, "resting on the plate");
        assertEquals(K_NPM * (proxyM.z + 0.1), r.coupling.forceN().z(), 1e-9, "the hand, 10 cm under it, feels it");
    }

    @Test
    void theMomentumTheHandGivesIsTheMomentumTheBodiesEndUpWith() {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        double cubeKg = 0.15;
        int cube = world.addDynamicBody("cube", new BoxShape(0.02, 0.02, 0.02), new Vector3d(0.05, 0.0, 0.0),
            new Quaterniond(), cubeKg, SolidInertia.box(cubeKg, 0.02, 0.02, 0.02, new Matrix3d()),
            new Material(0.0, 0.3, 0.3));
        Rig r = rig(world, K_NPM, B_NSPM, new Vector3d());
        Vector3d handM = new Vector3d(0.0, 0.004, 0.0);
        Vector3d handMps = new Vector3d(0.04, 0.0, 0.0);
        Vector3d handImpulseNs = new Vector3d();
        for (int i = 0; i < 1500; i++) {
            handM.fma(DT_S, handMps);
            tick(r, handM, handMps);
            // The hand feels −F_c for the step; the proxy got +F_c for it.
            handImpulseNs.fma(DT_S, r.coupling.forceN());
        }
        Vector3d cubeMps = r.world.bodyLinearVelocity(cube, new Vector3d());
        assertTrue(cubeMps.x > 0.02, "the proxy pushed the cube: " + cubeMps.x + " m/s");
        Vector3d momentumNs = cubeMps.mul(cubeKg).fma(MASS_KG, r.world.bodyLinearVelocity(r.proxy, new Vector3d()));
        // The proxy started at rest and the first tick only placed it (no force): all the momentum came through it.
        Vector3d startMps = new Vector3d(handMps).mul(MASS_KG);
        assertEquals(0.0, momentumNs.sub(startMps).add(handImpulseNs).length(), 1e-12,
            "p_cube + p_proxy − p_proxy(0) = −∫F_hand dt");
    }

    @Test
    void aFreeProxyIsStableJustInsideTheExplicitBoundAndNotJustOutside() {
        // k·Δt² + 2·b·Δt = 4·m·f: f = 0.95 rings down (the damper's rate b/2m = 75 /s), f = 1.05 grows without bound.
        // Without the step limit, which would cap the runaway's speed and hide the bound.
        assertTrue(stretchM(0.95) < 1e-6, "inside the bound");
        assertTrue(stretchM(1.05) > 1.0, "outside it");
    }

    /**
     * How far the proxy is from a hand held 1 cm from where the proxy started, at most over the last of 5 s, or
     * as soon as it is more than a metre.
     */
    private static double stretchM(double fraction) {
        double b = B_NSPM;
        double k = (4.0 * MASS_KG * fraction - 2.0 * b * DT_S) / (DT_S * DT_S);
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        Rig r = rigWithoutStepLimit(world, k, b, new Vector3d());
        Vector3d still = new Vector3d();
        tick(r, new Vector3d(), still);
        Vector3d handM = new Vector3d(0.01, 0.0, 0.0);
        double last = 0.0;
        for (int i = 0; i < 5000; i++) {
            tick(r, handM, still);
            double stretch = r.world.bodyPosition(r.proxy, new Vector3d()).distance(handM);
            if (stretch > 1.0) {
                return stretch;
            }
            if (i >= 4000) {
                last = Math.max(last, stretch);
            }
        }
        return last;
    }
}
