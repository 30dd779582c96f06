package org.hapticsd.physics.collision;

import static org.hapticsd.physics.collision.Contacts.LENGTH_M;
import static org.hapticsd.physics.collision.Contacts.assertSameContact;
import static org.hapticsd.physics.collision.Contacts.copy;
import static org.hapticsd.physics.collision.Contacts.pose;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.collision.PairScenes.Scene;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

/**
 * The dispatch as a whole: every pair has a routine and answers the same for either order, the static-only pairs
 * are refused, results are bit-identical from run to run and instance to instance, and the margin is honoured.
 */
class NarrowphaseTest {
    private static final int PER_PAIR = 25;
    private static final long SEED = 0x5eedL;

    /**
     * FNV-1a over the raw bits of every manifold of the sampled scenes, both orders. Changing it is a decision: any
     * change to the contact arithmetic, intended or not, moves it. Portable: the scenes use no trigonometry and
     * every operation on the path is strict IEEE arithmetic with a correctly rounded square root (JEP 306).
     */
    private static final long GOLDEN_HASH = 8149049107504912836L;
    private static final long FNV_OFFSET = 0xcbf29ce484222325L;

    private final Narrowphase narrowphase = new Narrowphase();
    private final ContactManifold manifold = new ContactManifold();
    private final ContactManifold swapped = new ContactManifold();

    @Test
    void shouldGiveFlippedManifoldWhenShapesOfAnyPairAreSwapped() {
        List<Scene> scenes = PairScenes.touching(PER_PAIR, SEED);
        assertEquals(18 * PER_PAIR, scenes.size(), "18 supported pairs");
        for (Scene s : scenes) {
            assertTrue(narrowphase.collide(s.a(), s.poseA(), s.b(), s.poseB(), manifold));
            assertTrue(narrowphase.collide(s.b(), s.poseB(), s.a(), s.poseA(), swapped), "swapped " + s);
            swapped.flip();
            // Different kinds run the same routine and flip() twice (p − n·d + n·d: rounding below 1e-15 m), ids
            // included. Same-kind pairs run one routine with the roles exchanged: spheres and capsules give the same
            // contact; boxes and hulls may pick the other shape's face as reference when the two faces separate
            // within the hysteresis band, so they are compared on unambiguous cases in the next test.
            if (s.a() != s.b() || s.a() instanceof SphereShape || s.a() instanceof CapsuleShape) {
                assertSameContact(manifold, swapped, LENGTH_M, s.a() != s.b());
            }
        }
    }

    @Test
    void shouldGiveSwappedManifoldForSameShapeContactsWithOneClearReferenceFace() {
        double root2 = Math.sqrt(2.0);
        BoxShape cube = new BoxShape(0.1, 0.1, 0.1);
        BoxShape slab = new BoxShape(0.5, 0.5, 0.1);
        BoxShape plate = new BoxShape(0.1, 0.1, 0.05);
        ConvexHullShape tetrahedron = new ConvexHullShape(Hulls.tetrahedron(0.05));
        ConvexHullShape cubeHull = new ConvexHullShape(ConvexHull.box(0.1, 0.1, 0.1));
        ConvexHullShape slabHull = new ConvexHullShape(ConvexHull.box(0.5, 0.5, 0.1));
        Quaterniond corner = new Quaterniond().rotationTo(new Vector3d(-1, -1, -1).normalize(), new Vector3d(0, 0, -1));
        Object[][] cases = {
            {plate, pose(0.02, -0.03, 0.149), slab, pose(0, 0, 0)},
            {plate, pose(0, 0, 0.149, Math.PI / 4, 0, 0, 1), cube, pose(0, 0, 0)},
            {cube, pose(0.03, 0.02, 0.1 + 0.1 * root2 - 0.001, Math.PI / 4, 1, 0, 0), slab, pose(0, 0, 0)},
            {cube, pose(new Vector3d(-0.04, 0.05, 0.1 + Math.sqrt(3.0) * 0.1 - 0.001), corner), slab, pose(0, 0, 0)},
            {cube, pose(0, 0, 2 * 0.1 * root2 - 0.001, Math.PI / 4, 1, 0, 0), cube, pose(0, 0, 0, Math.PI / 4, 0, 1, 0)},
            {plate, pose(0.1, 0.05, 0.152, 0.05, 1, 0, 0), slab, pose(0, 0, 0)},
            {cubeHull, pose(0.02, -0.03, 0.199, 0.3, 0, 0, 1), slabHull, pose(0, 0, 0)},
            {tetrahedron, pose(0, 0, 0.099), tetrahedron, pose(0, 0, 0)},
            {new CapsuleShape(0.05, 0.1), pose(0.05, 0, 0.097, Math.PI / 2, 0, 1, 0), new CapsuleShape(0.05, 0.1),
                pose(0, 0, 0, Math.PI / 2, 0, 1, 0)},
        };
        for (int k = 0; k < cases.length; k++) {
            Object[] c = cases[k];
            Shape a = (Shape) c[0];
            Shape b = (Shape) c[2];
            assertTrue(narrowphase.collide(a, (Transform) c[1], b, (Transform) c[3], manifold), "case " + k);
            assertTrue(narrowphase.collide(b, (Transform) c[3], a, (Transform) c[1], swapped), "case " + k);
            swapped.flip();
            assertSameContact(manifold, swapped, LENGTH_M, false);
        }
    }

    @Test
    void shouldRefuseStaticOnlyPairs() {
        Transform origin = pose(0, 0, 0);
        Shape[] statics = {PairScenes.MESH, PairScenes.PLANE};
        for (Shape a : statics) {
            for (Shape b : statics) {
                assertThrows(IllegalArgumentException.class, () -> narrowphase.collide(a, origin, b, origin, manifold));
            }
        }
    }

    @Test
    void shouldGiveBitIdenticalManifoldsFromTwoInstancesInAnyCallOrder() {
        List<Scene> scenes = PairScenes.touching(PER_PAIR, SEED);
        List<ContactManifold> forward = new ArrayList<>();
        for (Scene s : scenes) {
            narrowphase.collide(s.a(), s.poseA(), s.b(), s.poseB(), manifold);
            forward.add(copy(manifold));
        }
        // A second instance visiting the scenes backwards: no result may depend on scratch left by another call.
        Narrowphase other = new Narrowphase();
        for (int k = scenes.size() - 1; k >= 0; k--) {
            Scene s = scenes.get(k);
            other.collide(s.a(), s.poseA(), s.b(), s.poseB(), manifold);
            ContactManifold expected = forward.get(k);
            assertEquals(expected.pointCount(), manifold.pointCount());
            assertEquals(hash(expected, FNV_OFFSET), hash(manifold, FNV_OFFSET), "scene " + k);
        }
    }

    @Test
    void shouldReproduceTheGoldenHash() {
        long h = FNV_OFFSET;
        int points = 0;
        for (Scene s : PairScenes.touching(PER_PAIR, SEED)) {
            narrowphase.collide(s.a(), s.poseA(), s.b(), s.poseB(), manifold);
            h = hash(manifold, h);
            points += manifold.pointCount();
            narrowphase.collide(s.b(), s.poseB(), s.a(), s.poseA(), manifold);
            h = hash(manifold, h);
        }
        assertTrue(points > 18 * PER_PAIR, "the scenes must include multi-point manifolds: " + points);
        assertEquals(GOLDEN_HASH, h, "hash of the reference scenes; see GOLDEN_HASH before updating it");
    }

    @Test
    void shouldReportGapsWithinTheMarginAsNegativeDepths() {
        Narrowphase speculative = new Narrowphase(0.005);
        // 3 mm gaps: reported at depth −0.003 with margin 5 mm, nothing without margin.
        SphereShape ball = new SphereShape(0.05);
        BoxShape box = new BoxShape(0.1, 0.1, 0.1);
        Shape[] movers = {ball, new CapsuleShape(0.05, 0.1), box, new ConvexHullShape(Hulls.prism(6, 0.1, 0.1))};
        Transform[] poses = {pose(0, 0, 0.153), pose(0, 0, 0.153, Math.PI / 2, 0, 1, 0), pose(0, 0, 0.203),
            pose(0, 0, 0.203)};
        for (int i = 0; i < movers.length; i++) {
            for (Shape floor : new Shape[] {box, PairScenes.PLANE_FLAT, PairScenes.MESH}) {
                Transform floorPose = floor == box ? pose(0, 0, 0) : pose(0, 0, 0.1);
                assertFalse(narrowphase.collide(movers[i], poses[i], floor, floorPose, manifold));
                assertTrue(speculative.collide(movers[i], poses[i], floor, floorPose, manifold),
                    "mover " + i + " on " + floor);
                for (int k = 0; k < manifold.pointCount(); k++) {
                    assertEquals(-0.003, manifold.depth(k), LENGTH_M);
                }
                assertEquals(1.0, manifold.normal.z, LENGTH_M);
            }
        }
        assertFalse(speculative.collide(ball, pose(0, 0, 0.156), box, pose(0, 0, 0), manifold), "gap beyond margin");
        assertThrows(IllegalArgumentException.class, () -> new Narrowphase(-1e-3));
    }

    private static long hash(ContactManifold m, long h) {
        h = mix(h, m.pointCount());
        h = mix(h, Double.doubleToRawLongBits(m.normal.x));
        h = mix(h, Double.doubleToRawLongBits(m.normal.y));
        h = mix(h, Double.doubleToRawLongBits(m.normal.z));
        for (int i = 0; i < m.pointCount(); i++) {
            h = mix(h, Double.doubleToRawLongBits(m.point(i).x()));
            h = mix(h, Double.doubleToRawLongBits(m.point(i).y()));
            h = mix(h, Double.doubleToRawLongBits(m.point(i).z()));
            h = mix(h, Double.doubleToRawLongBits(m.depth(i)));
            h = mix(h, m.featureId(i));
        }
        return h;
    }

    private static long mix(long hash, long value) {
        for (int i = 0; i < 8; i++) {
            hash ^= (value >>> (8 * i)) & 0xff;
            hash *= 0x100000001b3L;
        }
        return hash;
    }
}
