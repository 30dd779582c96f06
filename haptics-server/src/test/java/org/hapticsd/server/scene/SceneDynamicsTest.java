package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.TriangleMeshShape;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Dynamic bodies, materials, contact modes and mesh files in scene files. */
class SceneDynamicsTest {
    private static final String SOURCE = "test.yaml";

    private static BuiltScene build(String yaml) throws SceneException {
        return SceneBuilder.build(new SceneLoader().parse(SOURCE, new StringReader(yaml)));
    }

    private static int index(BuiltScene scene, String name) {
        PhysicsWorld world = scene.haptic().world();
        for (int b = 0; b < world.bodyCount(); b++) {
            if (world.bodyName(b).equals(name)) {
                return b;
            }
        }
        throw new AssertionError("no body " + name);
    }

    @Test
    void shouldLoadAndBuildEveryShippedScene() throws Exception {
        java.util.List<Path> scenes;
        try (var files = Files.list(Path.of("../scenes"))) {
            scenes = files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(scenes.size() >= 3, "scenes/ holds wall, pen and stack: " + scenes);
        for (Path scene : scenes) {
            BuiltScene built = SceneBuilder.build(new SceneLoader().load(scene));
            var world = built.haptic().world();
            assertTrue(world.bodyCount() + world.deformableCount() >= 2, scene + " has bodies and a tool");
        }
    }

    @Test
    void shouldBuildThePenSceneWithItsBodiesMassesAndModes() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().load(Path.of("../scenes/pen.yaml")));
        PhysicsWorld world = scene.haptic().world();
        int box = index(scene, "box");
        int ball = index(scene, "ball");
        int floor = index(scene, "floor");
        int tool = scene.haptic().toolBody();
        assertSame(BodyType.DYNAMIC, world.bodyType(box));
        assertSame(BodyType.STATIC, world.bodyType(floor));
        assertEquals(0.05, world.bodyMassKg(box), 0.0);
        // Ball: density 1200 kg/m³, radius 1 cm. Exact formula, so a few ulps.
        assertEquals(1200.0 * 4.0 / 3.0 * Math.PI * 1e-6, world.bodyMassKg(ball), 1e-15);
        assertSame(ContactMode.PENALTY, world.contactMode(tool, box), "contactModes: tool -> penalty");
        assertSame(ContactMode.LCP, world.contactMode(box, floor), "scene default");
        assertEquals(0.2, world.material(box).elasticity(), 0.0);
    }

    @Test
    void shouldPlaceAHullSoThatItsOriginIsItsCentreOfMass() throws Exception {
        BuiltScene scene = build("""
            name: wedge
            bodies:
              - name: w
                motion: dynamic
                shape:
                  type: hull
                  points: [[0, 0, 0], [2, 0, 0], [0, 2, 0], [0, 0, 2]]
                position: [1.0, 0.0, 0.0]
            """);
        // A tetrahedron's centre of mass is the mean of its corners: (0.5, 0.5, 0.5). The engine's body origin is
        // the centre of mass, so the body sits there in the world and the hull is drawn where the file put it.
        Vector3d p = scene.haptic().world().bodyPosition(index(scene, "w"), new Vector3d());
        assertEquals(1.5, p.x, 1e-12);
        assertEquals(0.5, p.y, 1e-12);
        assertEquals(0.5, p.z, 1e-12);
        assertEquals(1000.0 * 8.0 / 6.0, scene.haptic().world().bodyMassKg(index(scene, "w")), 1e-9,
            "default density 1000 kg/m³ × volume 8/6 m³");
    }

    @Test
    void shouldLoadAMeshFileRelativeToTheSceneFile(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("meshes"));
        Files.writeString(dir.resolve("meshes/floor.obj"), """
            v -1 -1 0
            v 1 -1 0
            v 1 1 0
            v -1 1 0
            f 1 2 3 4
            """);
        Path scene = dir.resolve("scene.yaml");
        Files.writeString(scene, """
            name: meshy
            bodies:
              - name: floor
                shape: {type: mesh, file: meshes/floor.obj, scale: 0.5}
            """);
        BuiltScene built = SceneBuilder.build(new SceneLoader().load(scene));
        TriangleMeshShape mesh = assertInstanceOf(TriangleMeshShape.class,
            built.haptic().world().shape(index(built, "floor")));
        assertEquals(2, mesh.mesh().triangleCount(), "a quad is two triangles");
        assertEquals(0.5, mesh.mesh().vertexX(1), 0.0, "scaled by 0.5");
    }

    @Test
    void shouldNameTheSceneLineAndTheMeshFileLineOfABadMesh(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.obj"), "v 0 0 0\nv 1 0 0\nv 0 one 0\nf 1 2 3\n");
        Path scene = dir.resolve("scene.yaml");
        Files.writeString(scene, "name: bad\nbodies:\n  - name: floor\n    shape: {type: mesh, file: bad.obj}\n");
        SceneException e = assertThrows(SceneException.class, () -> SceneBuilder.build(new SceneLoader().load(scene)));
        assertTrue(e.getMessage().startsWith(scene + ":4:"), e.getMessage());
        assertTrue(e.getMessage().contains("floor.shape.file"), e.getMessage());
        assertTrue(e.getMessage().contains("bad.obj") && e.getMessage().contains("line 3"), e.getMessage());
    }

    @Test
    void shouldCarryABoxOnAKinematicConveyorAtTheBeltSpeed() throws Exception {
        BuiltScene scene = build("""
            name: conveyor
            contact: {mode: lcp}
            bodies:
              - name: belt
                motion: kinematic
                shape: {type: box, halfExtents: [0.5, 0.5, 0.05]}
                position: [0, 0, -0.05]
                velocity: [0.1, 0, 0]
                material: {staticFriction: 0.8, dynamicFriction: 0.6}
              - name: parcel
                motion: dynamic
                shape: {type: box, halfExtents: [0.05, 0.05, 0.05]}
                position: [0, 0.3, 0.0498]
                massKg: 1.0
                material: {staticFriction: 0.8, dynamicFriction: 0.6}
            """);
        PhysicsWorld world = scene.haptic().world();
        for (int k = 0; k < 2000; k++) {
            world.step(0.001);
        }
        int belt = index(scene, "belt");
        int parcel = index(scene, "parcel");
        // The parcel sits away from the haptic tool, which rests at the origin. The belt stays where it was put
        // (kinematic); friction brings the parcel to the belt's surface speed.
        // Tolerance 1 mm/s: the static-friction regime holds it at the belt speed up to the solver residual.
        assertEquals(0.0, world.bodyPosition(belt, new Vector3d()).x, 0.0);
        assertEquals(0.1, world.bodyLinearVelocity(parcel, new Vector3d()).x, 1e-3);
    }

    @Test
    void shouldSayAMissingMeshFileIsNotFound(@TempDir Path dir) throws Exception {
        Path scene = dir.resolve("scene.yaml");
        Files.writeString(scene, "name: m\nbodies:\n  - name: floor\n    shape: {type: mesh, file: nowhere.stl}\n");
        SceneException e = assertThrows(SceneException.class, () -> SceneBuilder.build(new SceneLoader().load(scene)));
        assertTrue(e.getMessage().startsWith(scene + ":4:"), e.getMessage());
        assertTrue(e.getMessage().contains("floor.shape.file: mesh file not found: ")
            && e.getMessage().endsWith("nowhere.stl"), e.getMessage());
    }

    @Test
    void shouldRefuseADynamicPlaneNamingItsLine() {
        SceneException e = assertThrows(SceneException.class, () -> build("""
            name: x
            bodies:
              - name: ground
                motion: dynamic
                shape: {type: plane, normal: [0, 0, 1]}
            """));
        assertTrue(e.getMessage().startsWith("test.yaml:3:"), e.getMessage());
        assertTrue(e.getMessage().contains("bodies[0].motion: a plane or mesh has no volume"), e.getMessage());
    }

    /** Found by a tester: a 1e160 kg ball loaded, and was lost (NaN) on its first step, exit 1 with an engine trace. */
    @Test
    void shouldRefuseAMassWhoseInertiaOverflowsNamingTheBody() throws SceneException {
        String ball = """
            name: x
            bodies:
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.05}
                massKg: MASS
            """;
        SceneException e = assertThrows(SceneException.class, () -> build(ball.replace("MASS", "1e160")));
        assertTrue(e.getMessage().startsWith("test.yaml:3:"), e.getMessage());
        assertTrue(e.getMessage().contains("bodies[0] (b): the inertia that massKg (or densityKgpm3) gives this shape "
            + "must be positive definite (its leading minors positive and finite in double precision)"),
            e.getMessage());
        // 1e100 kg: moments of 1e97 kg·m², cubed 1e291, within double precision.
        assertEquals(2, build(ball.replace("MASS", "1e100")).haptic().world().bodyCount());
    }

    /**
     * Found by a tester: a 1 g ball on a 1e9 N/m PENALTY floor at 4 kHz loaded and left at 24 km/s.
     * k·Δt² + 2·b·Δt < 4·m is the loosest bound a body can meet, so a scene that fails it is refused.
     */
    @Test
    void shouldRefuseAPenaltyContactThatCannotBeStable() throws SceneException {
        String ball = """
            name: x
            rateHz: 4000
            contact: {mode: penalty, stiffnessNpm: 1.0e9}
            bodies:
              - name: floor
                shape: {type: plane, normal: [0, 0, 1]}
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.05}
                position: [0.3, 0, 0.06]
                massKg: 0.001
            """;
        SceneException e = assertThrows(SceneException.class, () -> build(ball));
        // 4·m/Δt² − 2·b/Δt = 4·0.001·1.6e7 − 2·0.2·4000 = 64000 − 1600 = 62400 N/m.
        assertEquals("test.yaml:7:5: bodies[1] (b): its PENALTY contact with 'floor' is unstable at 4000 Hz: "
            + "k·Δt² + 2·b·Δt < 4·m fails for m = 0.001 kg (the body's mass) with contact.stiffnessNpm 1e+09 N/m "
            + "and contact.dampingNspm 0.2 N·s/m; lower contact.stiffnessNpm below 6.24e+04 N/m, make the body "
            + "heavier, or give its contacts mode lcp (docs/scenes.md, \"Integration bound\")", e.getMessage());
        // Its contacts in LCP: no spring, nothing to refuse; 62 000 N/m passes, 63 000 does not.
        assertEquals(3, build(ball + "contactModes:\n  - {body: b, mode: lcp}\n").haptic().world().bodyCount());
        build(ball.replace("1.0e9", "62000"));
        assertThrows(SceneException.class, () -> build(ball.replace("1.0e9", "63000")));
        // Damping alone can do it: 2·b·Δt = 2·9·0.00025 = 0.0045 > 4·m = 0.004.
        SceneException damped = assertThrows(SceneException.class,
            () -> build(ball.replace("stiffnessNpm: 1.0e9", "stiffnessNpm: 1000, dampingNspm: 9")));
        assertTrue(damped.getMessage().contains("lower contact.dampingNspm below 8 N·s/m"), damped.getMessage());
    }

    /**
     * Legal but likely not meant: a spring that only pushes bounced a resting 1 g ball by itself at α + 2β = 3.24
     * (docs/scenes.md, "Integration bound"). 1 kHz, k = 3000 N/m, b = 0.2 N·s/m: (k·Δt² + 2·b·Δt)/m = 0.0034/m.
     */
    @Test
    void shouldWarnOfABodyOnAPenaltySpringStiffForItsMass() throws SceneException {
        String ball = """
            name: x
            contact: {mode: penalty, stiffnessNpm: 3000}
            bodies:
              - name: floor
                shape: {type: plane, normal: [0, 0, 1]}
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.01}
                position: [0.3, 0, 0.0101]
                massKg: MASS
            """;
        // 1 g: 3.4. Below 1 needs k·Δt² < m − 2·b·Δt: k < (0.001 − 0.0004)/1e-6 = 600 N/m.
        assertEquals(List.of("scene 'x': body 'b' meets 'floor' in PENALTY with (k·Δt² + 2·b·Δt)/m = 3.4 at 1000 Hz "
            + "(m = 0.001 kg): a contact spring this stiff for the mass can bounce a resting body by itself; keep it "
            + "below 1: lower contact.stiffnessNpm below 600 N/m, make the body heavier, or give its contacts mode lcp "
            + "(docs/scenes.md, \"Integration bound\")"), build(ball.replace("MASS", "0.001")).warnings());
        assertEquals(1, build(ball.replace("MASS", "0.0033")).warnings().size(), "3.3 g: 1.03");
        assertEquals(List.of(), build(ball.replace("MASS", "0.0035")).warnings(), "3.5 g: 0.97");
        assertEquals(List.of(), build(ball.replace("MASS", "0.001") + "contactModes:\n  - {body: b, mode: lcp}\n")
            .warnings(), "no spring in LCP");
        StringBuilder many = new StringBuilder(ball.replace("MASS", "0.002"));
        for (int i = 0; i < 4; i++) {
            many.append("  - {name: c").append(i).append(", motion: dynamic, shape: {type: sphere, radiusM: 0.01}, ")
                .append("position: [").append(i).append(", 1, 0.0101], massKg: 0.002}\n");
        }
        // Five 2 g balls (1.7 on the floor): three named, each by its worst partner (another ball: their reduced
        // mass, 1 g, gives 3.4), then a count.
        List<String> warnings = build(many.toString()).warnings();
        assertEquals(4, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith("scene 'x': body 'b' meets 'c0' in PENALTY with (k·Δt² + 2·b·Δt)/m = "
            + "3.4 at 1000 Hz (m = 0.001 kg)"), warnings.get(0));
        assertEquals("scene 'x': 2 more bodies meet a PENALTY spring as stiff for their mass", warnings.get(3));
        // A 10 g ball beside the 1 g one is fine alone (0.34) and is not named: the light one's line names the pair.
        String pair = ball.replace("MASS", "0.001") + "  - {name: heavy, motion: dynamic, shape: {type: sphere, "
            + "radiusM: 0.01}, position: [1, 1, 0.0101], massKg: 0.01}\n";
        assertEquals(1, build(pair).warnings().size(), build(pair).warnings().toString());
    }

    @Test
    void shouldJudgeTwoDynamicBodiesByTheirReducedMass() throws SceneException {
        // 1 kHz, k = 3000 N/m, b = 0.2 N·s/m: critical mass (0.003 + 0.0004)/4 = 0.85 g. Each 1 g ball on the floor
        // passes; the two balls against each other move 0.5 g and fail, and the refusal names the partner.
        String balls = """
            name: x
            contact: {mode: penalty, stiffnessNpm: 3000}
            bodies:
              - name: floor
                shape: {type: plane, normal: [0, 0, 1]}
              - name: a
                motion: dynamic
                shape: {type: sphere, radiusM: 0.01}
                position: [0.3, 0, 0.01]
                massKg: 0.001
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.01}
                position: [0.32, 0, 0.01]
                massKg: 0.001
            """;
        SceneException e = assertThrows(SceneException.class, () -> build(balls));
        assertTrue(e.getMessage().startsWith("test.yaml:6:5: bodies[1] (a): its PENALTY contact with 'b' is unstable "
            + "at 1000 Hz: k·Δt² + 2·b·Δt < 4·m fails for m = 0.0005 kg (the two bodies' reduced mass)"),
            e.getMessage());
        build(balls + "contactModes:\n  - {pair: [a, b], mode: lcp}\n");
    }

    @Test
    void shouldRefuseBothMassAndDensity() {
        SceneException e = assertThrows(SceneException.class, () -> build("""
            name: x
            bodies:
              - name: b
                motion: dynamic
                shape: {type: sphere, radiusM: 0.1}
                massKg: 1.0
                densityKgpm3: 500
            """));
        assertTrue(e.getMessage().contains("bodies[0].massKg: give massKg or densityKgpm3, not both"), e.getMessage());
    }

    @Test
    void shouldRefuseAContactModeForAnUnknownBodyOrGroup() {
        SceneException body = assertThrows(SceneException.class, () -> build("""
            name: x
            bodies:
              - name: b
                shape: {type: sphere, radiusM: 0.1}
            contactModes:
              - {pair: [b, nobody], mode: none}
            """));
        assertTrue(body.getMessage().startsWith("test.yaml:6:"), body.getMessage());
        assertTrue(body.getMessage().contains("no body or tool named 'nobody'"), body.getMessage());
        SceneException group = assertThrows(SceneException.class, () -> build("""
            name: x
            contactModes:
              - {group: stack, mode: penalty}
            """));
        assertTrue(group.getMessage().contains("contactModes[0].group: no body is in group 'stack'"),
            group.getMessage());
        SceneException mode = assertThrows(SceneException.class, () -> build("""
            name: x
            contact:
              mode: springy
            """));
        assertTrue(mode.getMessage().contains("contact.mode: must be none, lcp, penalty or impulse, got 'springy'"),
            mode.getMessage());
    }

    @Test
    void shouldApplyPairBodyAndGroupModes() throws Exception {
        BuiltScene scene = build("""
            name: modes
            contact: {mode: lcp}
            bodies:
              - {name: a, motion: dynamic, group: g, shape: {type: sphere, radiusM: 0.1}, position: [0, 0, 1]}
              - {name: b, motion: dynamic, group: g, shape: {type: sphere, radiusM: 0.1}, position: [0, 0, 2]}
              - {name: c, motion: dynamic, shape: {type: sphere, radiusM: 0.1}, position: [0, 0, 3]}
            contactModes:
              - {group: g, mode: penalty}
              - {pair: [a, c], mode: none}
            """);
        PhysicsWorld world = scene.haptic().world();
        int a = index(scene, "a");
        int b = index(scene, "b");
        int c = index(scene, "c");
        assertSame(ContactMode.PENALTY, world.contactMode(a, b), "group");
        assertSame(ContactMode.NONE, world.contactMode(a, c), "pair");
        assertSame(ContactMode.LCP, world.contactMode(b, c), "scene");
    }
}
