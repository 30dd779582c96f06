package org.hapticsd.server.scene;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.deformable.DeformableBody;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The deformable scenes are deterministic: built twice from their files and stepped alike, they give bit-identical
 * states, and a golden hash per scene pins them (the equilibrium solve, the eigenproblem, the integrators and the
 * coupling in one number each). Changing a golden hash is a decision: any change to that arithmetic moves it.
 */
class DeformableDeterminismTest {
    /** FNV-1a over the raw bits of every node's and rigid body's position, every 10 ticks of the first second. */
    private static final long GOLDEN_MODAL_2DOF = 4714830186042847729L;
    /**
     * Moved (from 4333907063489012676) when the truncated cloth's 30 modes came from the sparse subspace iteration
     * instead of the dense eigendecomposition: the same modes to 4e-8 (LowestModesTest), which the cloth's contacts
     * with the post and the ball amplify in its first second (positions 1e-13 m apart at the start, 5 mm at 1 s;
     * the old route, with the ball thrown 1e-13 m/s faster, drifted from itself to 2.5e-6 m at 1 s).
     */
    private static final long GOLDEN_CLOTH = 8576943790307766187L;
    /**
     * Moved (from 3177281770303604415) when ElasticString began taking a step that would turn the string by more than
     * 0.25 rad again in substeps, and again (from 7092679377461426129) when the tool's grasp was evaluated at each
     * substep: this run's tool starts where the tool body is built, and its first second has steps that would turn
     * the string by up to 0.67 rad.
     */
    private static final long GOLDEN_STRING = 653793271713938367L;
    private static final long GOLDEN_STRING_BUCKLING = -655727733200402560L;

    private static long run(String scene, int ticks) throws Exception {
        return run(scene, ticks, 0.0);
    }

    /** With {@code liftM} > 0 the tool rises from where it starts by liftM·sin(πt/2), moving what it holds. */
    private static long run(String scene, int ticks, double liftM) throws Exception {
        org.hapticsd.server.render.HapticScene haptic = SceneBuilder.build(
            new SceneLoader().load(Path.of("..", "scenes", scene))).haptic();
        PhysicsWorld world = haptic.world();
        Vector3d start = world.bodyPosition(haptic.toolBody(), new Vector3d());
        long hash = 0xcbf29ce484222325L;
        Vector3d p = new Vector3d();
        for (int tick = 1; tick <= ticks; tick++) {
            if (liftM > 0) {
                double t = tick * 0.001;
                world.setToolState(haptic.toolBody(), new Vector3d(start).add(0, 0, liftM * Math.sin(Math.PI * t / 2)),
                    new Vector3d(0, 0, liftM * Math.PI / 2 * Math.cos(Math.PI * t / 2)));
            }
            world.step(0.001);
            if (tick % 10 != 0) {
                continue;
            }
            for (int d = 0; d < world.deformableCount(); d++) {
                DeformableBody body = world.deformable(d);
                for (int n = 0; n < body.nodeCount(); n++) {
                    hash = mix(hash, body.nodePosition(n, p));
                }
            }
            for (int b = 0; b < world.bodyCount(); b++) {
                hash = mix(hash, world.bodyPosition(b, p));
            }
        }
        return hash;
    }

    private static long mix(long hash, Vector3d v) {
        for (double x : new double[] {v.x, v.y, v.z}) {
            if (!Double.isFinite(x)) {
                throw new AssertionError("a position became " + x + ": a golden hash must pin a sound run");
            }
            long bits = Double.doubleToRawLongBits(x);
            for (int i = 0; i < 8; i++) {
                hash ^= (bits >>> (8 * i)) & 0xff;
                hash *= 0x100000001b3L;
            }
        }
        return hash;
    }

    /**
     * The cloth built again (run's warm-up copy, a stream's RESET_SCENE) takes the equilibrium and modes solved the
     * first time, a second or more of sparse linear algebra, and still steps to the golden hash; a cloth differing in
     * one spring's stiffness is solved anew.
     */
    @Test
    void shouldReuseTheModesOfABodyBuiltAgainAndSolveAChangedOneAnew() throws Exception {
        SceneLoader loader = new SceneLoader();
        Path cloth = Path.of("..", "scenes", "cloth.yaml");
        org.hapticsd.physics.deformable.MassSpringBody first = clothOf(SceneBuilder.build(loader.load(cloth)));
        org.hapticsd.physics.deformable.MassSpringBody again = clothOf(SceneBuilder.build(loader.load(cloth)));
        org.junit.jupiter.api.Assertions.assertSame(first.basis(), again.basis());
        assertEquals(GOLDEN_CLOTH, run("cloth.yaml", 1000));

        SceneSpec stiffer = loader.load(cloth);
        stiffer.deformables().get(0).setStiffnessNpm(2000.5);
        org.hapticsd.physics.deformable.MassSpringBody changed = clothOf(SceneBuilder.build(stiffer));
        org.junit.jupiter.api.Assertions.assertNotSame(first.basis(), changed.basis());
        org.junit.jupiter.api.Assertions.assertNotEquals(first.basis().omegaRadps(29), changed.basis().omegaRadps(29));
    }

    private static org.hapticsd.physics.deformable.MassSpringBody clothOf(BuiltScene scene) {
        return (org.hapticsd.physics.deformable.MassSpringBody) scene.haptic().world().deformable(0);
    }

    @Test
    void shouldStepSource004sChainBitIdenticallyAndToItsGoldenHash() throws Exception {
        long first = run("modal-2dof.yaml", 1000);
        assertEquals(first, run("modal-2dof.yaml", 1000), "two builds, two runs");
        assertEquals(GOLDEN_MODAL_2DOF, first, "scenes/modal-2dof.yaml; see GOLDEN_MODAL_2DOF before updating it");
    }

    @Test
    void shouldStepTheClothBitIdenticallyAndToItsGoldenHash() throws Exception {
        long first = run("cloth.yaml", 1000);
        assertEquals(first, run("cloth.yaml", 1000), "two builds, two runs");
        assertEquals(GOLDEN_CLOTH, first, "scenes/cloth.yaml; see GOLDEN_CLOTH before updating it");
    }

    @Test
    void shouldStepTheHeldStringBitIdenticallyAndToItsGoldenHash() throws Exception {
        long first = run("string-cantilever.yaml", 1000, 0.05);
        assertEquals(first, run("string-cantilever.yaml", 1000, 0.05), "two builds, two runs");
        assertEquals(GOLDEN_STRING, first, "scenes/string-cantilever.yaml; see GOLDEN_STRING before updating it");
    }

    @Test
    void shouldBuckleSource001sExampleBitIdenticallyAndToItsGoldenHash() throws Exception {
        long first = run("string-buckling.yaml", 1000);
        assertEquals(first, run("string-buckling.yaml", 1000), "two builds, two runs");
        assertEquals(GOLDEN_STRING_BUCKLING, first,
            "scenes/string-buckling.yaml; see GOLDEN_STRING before updating it");
    }
}
