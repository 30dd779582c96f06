package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.StringReader;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The generated scenes put their bodies where the definitions' accessors say, which is what the peer benchmark reads
 * to build the same bodies in other engines: one definition, two consumers.
 */
class GeneratedScenesTest {

    private static BuiltScene build(String source, String yaml) throws SceneException {
        return SceneBuilder.build(new SceneLoader().parse(source, new StringReader(yaml)));
    }

    @Test
    void shouldPlaceEveryCubeExactlyWhereCubeStackSays() throws Exception {
        CubeStack stack = new CubeStack(CubeStack.BENCHMARK_CUBES);
        BuiltScene scene = build("cube-stack", stack.yaml());
        PhysicsWorld world = scene.haptic().world();
        Vector3d p = new Vector3d();
        Quaterniond q = new Quaterniond();
        for (int i = 0; i < stack.cubes(); i++) {
            int body = scene.bodyIndices()[scene.bodyNames().indexOf(stack.name(i))];
            world.bodyPosition(body, p);
            // Double.toString round-trips, so the file carries the accessor's double exactly.
            assertEquals(stack.centreM(i, 0), p.x, 0.0, stack.name(i) + " x");
            assertEquals(stack.centreM(i, 1), p.y, 0.0, stack.name(i) + " y");
            assertEquals(stack.centreM(i, 2), p.z, 0.0, stack.name(i) + " z");
            // The loader normalises quaternions: a unit one may change in its last bit, 1e-15.
            world.bodyOrientation(body, q);
            assertEquals(stack.orientation(i, 0), q.w, 1e-15, stack.name(i) + " w");
            assertEquals(stack.orientation(i, 3), q.z, 1e-15, stack.name(i) + " qz");
            assertEquals(CubeStack.MASS_KG, world.bodyMassKg(body), 0.0);
        }
    }

    @Test
    void shouldPlaceEverySphereWithinHalfAMicrometreOfSpherePile() throws Exception {
        SpherePile pile = new SpherePile(200);
        BuiltScene scene = build("pile-200", pile.yaml());
        PhysicsWorld world = scene.haptic().world();
        double[] c = pile.centres();
        Vector3d p = new Vector3d();
        for (int i = 0; i < pile.spheres(); i++) {
            world.bodyPosition(scene.bodyIndices()[scene.bodyNames().indexOf(pile.name(i))], p);
            // SpherePile writes centres to the micrometre (%.6f): the file is within 0.5 µm of the accessor, plus the
            // rounding of the parsed decimal.
            assertEquals(c[3 * i], p.x, 5e-7 + 1e-15, pile.name(i) + " x");
            assertEquals(c[3 * i + 1], p.y, 5e-7 + 1e-15, pile.name(i) + " y");
            assertEquals(c[3 * i + 2], p.z, 5e-7 + 1e-15, pile.name(i) + " z");
        }
    }
}
