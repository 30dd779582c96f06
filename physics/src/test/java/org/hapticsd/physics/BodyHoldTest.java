package org.hapticsd.physics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * {@link PhysicsWorld#holdBody}: a tool holds a dynamic body through a spring and damper anchored where the tool's
 * centre was when the hold began. The tool feels the body's weight, the body hangs below the anchor, the pair does
 * not collide, letting go drops the body, and the explicit step's bound {@code k·Δt² < 4·m} is where it sits.
 */
class BodyHoldTest {

    private static final double DT_S = 0.001;
    private static final double MASS_KG = 0.2;
    private static final double HALF_M = 0.02;
    private static final double TOOL_RADIUS_M = 0.005;
    private static final double G_MPS2 = 9.81;
    private static final double K_NPM = 300.0;
    private static final double B_NSPM = 2.0;

    /** A box whose top face is just below the tool, the tool touching it, nothing else in the world. */
    private record Scene(PhysicsWorld world, int tool, int box) {
    }

    private static Scene scene(double anchorOffsetXM) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        int box = world.addDynamicBody("box", new BoxShape(HALF_M, HALF_M, HALF_M), new Vector3d(0.0, 0.0, 0.5),
            new Quaterniond(), MASS_KG, SolidInertia.box(MASS_KG, HALF_M, HALF_M, HALF_M, new Matrix3d()),
            Material.DEFAULT);
        world.setDamping(box, 0.0, 5.0);
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        // Pressed 1 mm into the top face.
        world.setToolState(tool, new Vector3d(anchorOffsetXM, 0.0, 0.5 + HALF_M + TOOL_RADIUS_M - 0.001),
            new Vector3d());
        world.step(DT_S);
        return new Scene(world, tool, box);
    }

    private static void holdStill(Scene s, double seconds) {
        Vector3d at = s.world.bodyPosition(s.tool, new Vector3d());
        for (int i = 0; i < Math.round(seconds / DT_S); i++) {
            s.world.setToolState(s.tool, at, new Vector3d());
            s.world.step(DT_S);
        }
    }

    @Test
    void shouldRenderTheWeightOfAHeldBodyAndHangItBelowTheAnchorBySagMgOverK() {
        Scene s = scene(0.0);
        Vector3d toolM = s.world.bodyPosition(s.tool, new Vector3d());
        s.world.holdBody(s.tool, s.box, K_NPM, B_NSPM);
        assertEquals(s.box, s.world.heldBody(s.tool));
        assertEquals(K_NPM, s.world.heldBodyStiffnessNpm(s.tool));
        assertEquals(B_NSPM, s.world.heldBodyDampingNspm(s.tool));
        holdStill(s, 3.0);

        double weightN = MASS_KG * G_MPS2;
        Vector3d onTool = s.world.contactForceOnBody(s.tool, new Vector3d());
        assertEquals(-weightN, onTool.z, 1e-3 * weightN, "the tool is pulled down by the body's weight");
        assertEquals(0.0, Math.hypot(onTool.x, onTool.y), 1e-6, "straight down");
        Vector3d onBox = s.world.contactForceOnBody(s.box, new Vector3d());
        assertEquals(0.0, onBox.add(onTool).length(), 1e-12, "the body feels the opposite (Newton's third law)");

        Vector3d anchorM = s.world.holdAnchor(s.tool, new Vector3d());
        assertEquals(toolM.z - weightN / K_NPM, anchorM.z, 1e-3 * weightN / K_NPM, "sag m·g/k below the tool");
        assertEquals(0.0, s.world.bodyLinearVelocity(s.box, new Vector3d()).length(), 1e-4, "at rest");
        assertEquals(0, toolBoxContacts(s), "the held pair does not collide although they overlap");
    }

    @Test
    void shouldFollowTheToolWhenItLifts() {
        Scene s = scene(0.0);
        s.world.holdBody(s.tool, s.box, K_NPM, B_NSPM);
        Vector3d toolM = s.world.bodyPosition(s.tool, new Vector3d());
        double startZ = s.world.bodyPosition(s.box, new Vector3d()).z;
        // Up 10 cm at 0.1 m/s, then hold.
        Vector3d v = new Vector3d(0.0, 0.0, 0.1);
        for (int i = 0; i < 1000; i++) {
            s.world.setToolState(s.tool, toolM.fma(DT_S, v), v);
            s.world.step(DT_S);
        }
        holdStill(s, 3.0);
        double sagM = MASS_KG * G_MPS2 / K_NPM;
        assertEquals(startZ + 0.1 - sagM, s.world.bodyPosition(s.box, new Vector3d()).z, 1e-4, "lifted 10 cm");
    }

    @Test
    void shouldHangAnOffCentreHoldWithTheCentreOfMassBelowTheAnchor() {
        Scene s = scene(0.015);
        s.world.holdBody(s.tool, s.box, K_NPM, B_NSPM);
        holdStill(s, 12.0);
        Vector3d anchorM = s.world.holdAnchor(s.tool, new Vector3d());
        Vector3d centreM = s.world.bodyPosition(s.box, new Vector3d());
        assertEquals(0.0, Math.hypot(centreM.x - anchorM.x, centreM.y - anchorM.y), 1e-4,
            "the body turned until its centre hangs straight below the anchor");
        assertTrue(centreM.z < anchorM.z, "below, not above");
        assertEquals(-MASS_KG * G_MPS2, s.world.contactForceOnBody(s.tool, new Vector3d()).z, 1e-3);
    }

    @Test
    void shouldDropTheBodyWhenLetGo() {
        Scene s = scene(0.0);
        s.world.holdBody(s.tool, s.box, K_NPM, B_NSPM);
        holdStill(s, 2.0);
        s.world.releaseBody(s.tool);
        assertEquals(-1, s.world.heldBody(s.tool));
        double z0 = s.world.bodyPosition(s.box, new Vector3d()).z;
        double vz0 = s.world.bodyLinearVelocity(s.box, new Vector3d()).z;
        holdStill(s, 0.2);
        double z = s.world.bodyPosition(s.box, new Vector3d()).z;
        // Semi-implicit Euler over n steps: Δz = v0·t − g·Δt²·n(n+1)/2.
        int n = 200;
        assertEquals(z0 + vz0 * n * DT_S - G_MPS2 * DT_S * DT_S * n * (n + 1) / 2.0, z, 1e-9, "falls freely");
        assertEquals(0.0, s.world.contactForceOnBody(s.tool, new Vector3d()).length(), 0.0, "nothing on the tool");
    }

    @Test
    void shouldBeStableJustBelowTheExplicitBoundAndNotJustAbove() {
        // Anchor at the centre (through the top face's centre, lever arm along z only: no turn), no damping,
        // weightless, so the body oscillates about the tool: k·Δt² < 4·m is the bound of semi-implicit Euler.
        double boundNpm = 4.0 * MASS_KG / (DT_S * DT_S);
        assertEquals(MASS_KG, PhysicsWorld.anchorEffectiveMassKg(MASS_KG, 1.0, 0.0), 1e-15);
        assertTrue(amplitudeGrowth(0.95 * boundNpm) < 1.0, "stable at 0.95× the bound");
        assertTrue(amplitudeGrowth(1.05 * boundNpm) > 10.0, "diverges at 1.05× the bound");
    }

    /** The box's largest distance from the tool over the last 100 steps of 400, over that of the first 100. */
    private static double amplitudeGrowth(double stiffnessNpm) {
        PhysicsWorld world = new PhysicsWorld(ContactSettings.defaults());
        world.setGravity(new Vector3d());
        int box = world.addDynamicBody("box", new SphereShape(HALF_M), new Vector3d(0.0, 0.0, 0.0),
            new Quaterniond(), MASS_KG, SolidInertia.sphere(MASS_KG, HALF_M, new Matrix3d()), Material.DEFAULT);
        int tool = world.addTool("tool", TOOL_RADIUS_M);
        world.setToolState(tool, new Vector3d(0.0, 0.0, 0.0), new Vector3d());
        world.step(DT_S);
        world.holdBody(tool, box, stiffnessNpm, 0.0);
        world.setToolState(tool, new Vector3d(0.0, 0.0, 1e-4), new Vector3d());
        double first = 0.0;
        double last = 0.0;
        Vector3d p = new Vector3d();
        for (int i = 0; i < 400; i++) {
            world.step(DT_S);
            double d = world.bodyPosition(box, p).distance(0.0, 0.0, 1e-4);
            if (i < 100) {
                first = Math.max(first, d);
            } else if (i >= 300) {
                last = Math.max(last, d);
            }
        }
        return last / first;
    }

    @Test
    void shouldMeasureASphereAgainstABodyForTheReachOfAGrab() {
        Scene s = scene(0.0);
        SphereShape reach = new SphereShape(0.01);
        // The top face is at z = 0.52.
        assertEquals(0.003, s.world.sphereDepthM(s.box, reach, new Vector3d(0.0, 0.0, 0.527)), 1e-12);
        assertEquals(1e-4, s.world.sphereDepthM(s.box, reach, new Vector3d(0.0, 0.0, 0.5299)), 1e-12, "just touching");
        assertEquals(Double.NEGATIVE_INFINITY, s.world.sphereDepthM(s.box, reach, new Vector3d(0.0, 0.0, 0.531)));
    }

    @Test
    void shouldRefuseToHoldWhatCannotBeHeld() {
        Scene s = scene(0.0);
        assertThrows(IllegalArgumentException.class, () -> s.world.holdBody(s.box, s.tool, K_NPM, B_NSPM),
            "the tool is not dynamic");
        assertThrows(IllegalArgumentException.class, () -> s.world.holdBody(s.box, s.box, K_NPM, B_NSPM));
        assertThrows(IllegalArgumentException.class, () -> s.world.holdBody(s.tool, s.box, Double.NaN, B_NSPM));
        assertThrows(IllegalArgumentException.class, () -> s.world.holdBody(s.tool, s.box, K_NPM, -1.0));
        assertEquals(-1, s.world.heldBody(s.tool), "nothing held after refusals");
    }

    @Test
    void shouldBoundTheEffectiveMassAtAnAnchorFromTheLeastPrincipalMoment() {
        Scene s = scene(0.0);
        double inertiaKgM2 = MASS_KG * (2 * HALF_M) * (2 * HALF_M) / 6.0;
        assertEquals(1.0 / (1.0 / MASS_KG + 0.03 * 0.03 / inertiaKgM2), s.world.anchorEffectiveMassKg(s.box, 0.03),
            1e-15);
        // A turned diagonal inertia: the closed-form least eigenvalue finds the least moment again.
        Matrix3d inertia = new Matrix3d().scaling(2.0, 3.0, 5.0);
        Matrix3d turn = new Matrix3d().rotation(0.7, new Vector3d(1.0, 2.0, 3.0).normalize());
        Matrix3d turned = new Matrix3d(turn).mul(inertia).mul(new Matrix3d(turn).transpose());
        assertEquals(2.0, org.hapticsd.physics.geometry.SymmetricEigen.least(turned), 1e-12);
        assertEquals(5.0, org.hapticsd.physics.geometry.SymmetricEigen.greatest(turned), 1e-12);
        assertEquals(HALF_M * Math.sqrt(3.0), s.world.bodyExtentM(s.box), 1e-12, "a cube's farthest corner");
    }

    private static int toolBoxContacts(Scene s) {
        int n = 0;
        for (int i = 0; i < s.world.contactCount(); i++) {
            Contact c = s.world.contact(i);
            if ((c.bodyA() == s.tool && c.bodyB() == s.box) || (c.bodyA() == s.box && c.bodyB() == s.tool)) {
                n++;
            }
        }
        return n;
    }
}
