package org.hapticsd.physics;

import static org.hapticsd.physics.PenaltyContactSettingsTest.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class PhysicsWorldBuildingTest {

    private final PhysicsWorld world = new PhysicsWorld(new PenaltyContactSettings(1000.0, 1.0));

    @Test
    void shouldNumberBodiesInOrderAddedAndKeepTheirDescription() {
        PlaneShape floorShape = new PlaneShape(new Vector3d(0, 0, 1));
        BoxShape boxShape = new BoxShape(0.1, 0.2, 0.3);
        int floor = world.addStaticBody("floor", floorShape, new Vector3d(), new Quaterniond());
        int tool = world.addTool("stylus", 0.005);
        int box = world.addStaticBody("box", boxShape, new Vector3d(1, 2, 3), new Quaterniond());

        assertEquals(0, floor);
        assertEquals(1, tool);
        assertEquals(2, box);
        assertEquals(3, world.bodyCount());
        assertEquals("stylus", world.bodyName(tool));
        assertEquals(BodyType.STATIC, world.bodyType(floor));
        assertEquals(BodyType.KINEMATIC, world.bodyType(tool));
        assertSame(boxShape, world.shape(box));
        assertEquals(new SphereShape(0.005), world.shape(tool));
        assertEquals(new Vector3d(1, 2, 3), world.bodyPosition(box, new Vector3d()));
    }

    @Test
    void shouldStoreNormalisedOrientation() {
        int box = world.addStaticBody("box", new BoxShape(0.1, 0.1, 0.1), new Vector3d(),
                new Quaterniond(0.0, 0.0, 0.0, 2.0));
        assertEquals(new Quaterniond(), world.bodyOrientation(box, new Quaterniond()));
    }

    @Test
    void shouldReportToolStateAndZeroVelocityForStatics() {
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
        int tool = world.addTool("tool", 0.01);
        assertEquals(new Vector3d(), world.bodyPosition(tool, new Vector3d()), "a new tool starts at the origin");
        world.setToolState(tool, new Vector3d(0.1, 0.2, 0.3), new Vector3d(-1, 0, 2));
        assertEquals(new Vector3d(0.1, 0.2, 0.3), world.bodyPosition(tool, new Vector3d()));
        assertEquals(new Vector3d(-1, 0, 2), world.bodyLinearVelocity(tool, new Vector3d()));
        assertEquals(new Vector3d(), world.bodyLinearVelocity(floor, new Vector3d()));
    }

    @Test
    void shouldNotTestToolsAgainstEachOther() {
        int first = world.addTool("left", 0.01);
        int second = world.addTool("right", 0.01);
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(), new Quaterniond());
        // Both tools at the same place, both 4 mm into the floor: two tool–floor contacts, none between tools.
        world.setToolState(first, new Vector3d(0, 0, 0.006), new Vector3d());
        world.setToolState(second, new Vector3d(0, 0, 0.006), new Vector3d());
        world.step(0.001);
        assertEquals(2, world.contactCount());
        assertEquals(first, world.contact(0).bodyA());
        assertEquals(second, world.contact(1).bodyA());
    }

    @Test
    void shouldRejectToolStateForStaticBodyOrNonFiniteValues() {
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
        int tool = world.addTool("tool", 0.01);
        assertMessage("floor", "STATIC", () -> world.setToolState(floor, new Vector3d(), new Vector3d()));
        assertMessage("positionM", "NaN",
                () -> world.setToolState(tool, new Vector3d(Double.NaN, 0, 0), new Vector3d()));
        assertMessage("velocityMps", "Infinity",
                () -> world.setToolState(tool, new Vector3d(), new Vector3d(0, Double.POSITIVE_INFINITY, 0)));
    }

    @Test
    void shouldRejectInvalidBuildingArguments() {
        assertMessage("radiusM", "-1.0", () -> world.addTool("tool", -1.0));
        assertMessage("orientation", "0", () -> world.addStaticBody("box", new BoxShape(1, 1, 1), new Vector3d(),
                new Quaterniond(0, 0, 0, 0)));
        assertMessage("positionM", "NaN", () -> world.addStaticBody("box", new BoxShape(1, 1, 1),
                new Vector3d(Double.NaN, 0, 0), new Quaterniond()));
        assertThrows(NullPointerException.class,
                () -> world.addStaticBody("box", null, new Vector3d(), new Quaterniond()));
        assertEquals(0, world.bodyCount(), "a rejected body must leave the world unchanged");
    }

    @Test
    void shouldRejectNonPositiveOrNonFiniteTimeStep() {
        assertMessage("dtS", "0.0", () -> world.step(0.0));
        assertMessage("dtS", "NaN", () -> world.step(Double.NaN));
        assertMessage("dtS", "Infinity", () -> world.step(Double.POSITIVE_INFINITY));
    }

    @Test
    void shouldRejectIndicesOutsideTheScene() {
        world.addTool("tool", 0.01);
        assertThrows(IndexOutOfBoundsException.class, () -> world.bodyName(1));
        assertThrows(IndexOutOfBoundsException.class, () -> world.contactForceOnBody(-1, new Vector3d()));
        assertThrows(IndexOutOfBoundsException.class, () -> world.contact(0), "no contact before a step");
    }

    @Test
    void shouldKeepDynamicBodyMassInertiaAndMaterial() {
        Matrix3d inertia = SolidInertia.box(2.0, 0.1, 0.2, 0.3, new Matrix3d());
        Material material = new Material(0.4, 0.6, 0.5);
        int box = world.addDynamicBody("crate", new BoxShape(0.1, 0.2, 0.3), new Vector3d(0, 0, 1),
                new Quaterniond(), 2.0, inertia, material);
        assertEquals(BodyType.DYNAMIC, world.bodyType(box));
        assertEquals(2.0, world.bodyMassKg(box), 0.0);
        assertEquals(inertia, world.bodyInertia(box, new Matrix3d()));
        assertSame(material, world.material(box));
        assertEquals(false, world.isTool(box));
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
        assertSame(Material.DEFAULT, world.material(floor), "frictionless, inelastic unless given one");
        assertEquals(0.0, world.bodyMassKg(floor), 0.0, "static bodies are infinite masses, reported as 0");
    }

    @Test
    void shouldRejectDynamicBodiesWithoutVolumeOrWithInvalidMassProperties() {
        Matrix3d inertia = SolidInertia.sphere(1.0, 0.1, new Matrix3d());
        Quaterniond identity = new Quaterniond();
        assertMessage("PlaneShape", "volume", () -> world.addDynamicBody("plane", new PlaneShape(new Vector3d(0, 0, 1)),
                new Vector3d(), identity, 1.0, inertia, Material.DEFAULT));
        TriangleMesh mesh = new TriangleMesh(new double[] {0, 0, 0, 1, 0, 0, 0, 1, 0}, new int[] {0, 1, 2});
        assertMessage("TriangleMeshShape", "volume", () -> world.addDynamicBody("mesh", new TriangleMeshShape(mesh),
                new Vector3d(), identity, 1.0, inertia, Material.DEFAULT));
        SphereShape ball = new SphereShape(0.1);
        assertMessage("massKg", "0.0",
                () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 0.0, inertia, Material.DEFAULT));
        assertMessage("massKg", "NaN", () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, Double.NaN,
                inertia, Material.DEFAULT));
        Matrix3d skewed = new Matrix3d(inertia).m10(0.001);
        assertMessage("inertiaKgM2", "symmetric",
                () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 1.0, skewed, Material.DEFAULT));
        Matrix3d indefinite = new Matrix3d().scaling(0.01, -0.01, 0.01);
        assertMessage("inertiaKgM2", "positive definite",
                () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 1.0, indefinite, Material.DEFAULT));
        // A tensor whose minors underflow (a 1e-300 kg body), in one line: JOML's toString spans three.
        Matrix3d tiny = new Matrix3d().scaling(1e-303);
        IllegalArgumentException underflow = assertThrows(IllegalArgumentException.class,
            () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 1.0, tiny, Material.DEFAULT));
        assertEquals("inertiaKgM2 must be positive definite (its leading minors positive and finite in double "
            + "precision), was [[1.000e-303 0.000 0.000] [0.000 1.000e-303 0.000] [0.000 0.000 1.000e-303]]",
            underflow.getMessage());
        // One whose minors overflow (a 1e160 kg ball of 5 cm: 4e156 kg·m², cubed past 1e308): its inverse would be
        // NaN. 1e100 on the diagonal (determinant 1e300) is still a body.
        Matrix3d huge = new Matrix3d().scaling(4e156);
        IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
            () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 1e160, huge, Material.DEFAULT));
        assertTrue(overflow.getMessage().startsWith("inertiaKgM2 must be positive definite (its leading minors "
            + "positive and finite in double precision), was [[4.000e+156"), overflow.getMessage());

        assertThrows(NullPointerException.class,
                () -> world.addDynamicBody("ball", ball, new Vector3d(), identity, 1.0, inertia, null));
        assertEquals(0, world.bodyCount(), "a rejected body must leave the world unchanged");
        world.addDynamicBody("heavy", ball, new Vector3d(), identity, 1e100, new Matrix3d().scaling(1e100),
            Material.DEFAULT);
        assertEquals(1, world.bodyCount());
    }

    @Test
    void shouldSetStateOnlyOfBodiesOfTheRightType() {
        int floor = world.addStaticBody("floor", new PlaneShape(new Vector3d(0, 0, 1)), new Vector3d(),
                new Quaterniond());
        int ball = world.addDynamicBody("ball", new SphereShape(0.1), new Vector3d(0, 0, 1), new Quaterniond(), 1.0,
                SolidInertia.sphere(1.0, 0.1, new Matrix3d()), Material.DEFAULT);
        assertMessage("ball", "not KINEMATIC", () -> world.setKinematicState(ball, new Vector3d(), new Quaterniond(),
                new Vector3d(), new Vector3d()));
        assertMessage("floor", "not DYNAMIC",
                () -> world.setBodyVelocity(floor, new Vector3d(), new Vector3d()));
        assertMessage("state", "NaN",
                () -> world.setBodyVelocity(ball, new Vector3d(Double.NaN, 0, 0), new Vector3d()));
        assertMessage("ball", "DYNAMIC", () -> world.setToolState(ball, new Vector3d(), new Vector3d()));
        world.setBodyPose(ball, new Vector3d(1, 2, 3), new Quaterniond(0, 0, 0, 3));
        assertEquals(new Vector3d(1, 2, 3), world.bodyPosition(ball, new Vector3d()));
        assertEquals(new Quaterniond(), world.bodyOrientation(ball, new Quaterniond()), "normalised");
    }
}
