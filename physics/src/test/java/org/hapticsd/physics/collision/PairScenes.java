package org.hapticsd.physics.collision;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * One shape of each kind and, for every supported pair, posed configurations in contact found by seeded rejection
 * sampling. Uses no trigonometry (rotations are normalised random quaternions, the hull has rational vertices) and
 * {@link Random}, whose sequence the Java specification fixes, so the configurations are the same bits on every
 * JVM and CPU.
 */
final class PairScenes {
    static final SphereShape SPHERE = new SphereShape(0.05);
    static final CapsuleShape CAPSULE = new CapsuleShape(0.04, 0.08);
    static final BoxShape BOX = new BoxShape(0.1, 0.07, 0.05);
    /** An octagonal prism with vertices (±2, ±1), (±1, ±2) · 3 cm, 8 cm tall: not a box, rational coordinates. */
    static final ConvexHullShape HULL = new ConvexHullShape(octagonPrism(0.03, 0.04));
    static final TriangleMeshShape MESH = new TriangleMeshShape(new TriangleMesh(
        new double[] {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0}, new int[] {0, 1, 2, 0, 2, 3}));
    static final PlaneShape PLANE = new PlaneShape(new Vector3d(0.0, 0.1, 1.0));
    static final PlaneShape PLANE_FLAT = new PlaneShape(new Vector3d(0.0, 0.0, 1.0));

    /** In canonical order: sphere, capsule, box, hull, mesh, plane. */
    static final Shape[] SHAPES = {SPHERE, CAPSULE, BOX, HULL, MESH, PLANE};

    /** A configuration: shape a at poseA against shape b at poseB, touching. */
    record Scene(Shape a, Transform poseA, Shape b, Transform poseB) {
    }

    private PairScenes() {
    }

    /**
     * For each supported pair (i <= j in {@link #SHAPES}, not both static), {@code perPair} touching
     * configurations with random poses of A around a turned B.
     */
    static List<Scene> touching(int perPair, long seed) {
        Narrowphase narrowphase = new Narrowphase();
        ContactManifold manifold = new ContactManifold();
        Random random = new Random(seed);
        List<Scene> scenes = new ArrayList<>();
        for (int i = 0; i < SHAPES.length; i++) {
            for (int j = i; j < SHAPES.length; j++) {
                if (i >= 4 && j >= 4) {
                    continue;
                }
                Transform poseB = new Transform().set(new Vector3d(0.01, -0.02, 0.03), randomRotation(random));
                boolean staticB = j >= 4;
                if (staticB) {
                    // Floors tilted by a small fixed rotation; shapes fall on their front side.
                    poseB.set(new Vector3d(0.01, -0.02, 0.03), new Quaterniond(0.1, -0.05, 0.0, 1.0).normalize());
                }
                int found = 0;
                for (int attempt = 0; attempt < 20_000 && found < perPair; attempt++) {
                    Vector3d local = new Vector3d(0.25 * (2 * random.nextDouble() - 1),
                        0.25 * (2 * random.nextDouble() - 1),
                        staticB ? 0.12 * random.nextDouble() : 0.25 * (2 * random.nextDouble() - 1));
                    Transform poseA = new Transform().set(poseB.toWorld(local, new Vector3d()), randomRotation(random));
                    if (narrowphase.collide(SHAPES[i], poseA, SHAPES[j], poseB, manifold)) {
                        scenes.add(new Scene(SHAPES[i], poseA, SHAPES[j], poseB));
                        found++;
                    }
                }
                if (found < perPair) {
                    throw new IllegalStateException("found only " + found + " touching poses for " + i + ", " + j);
                }
            }
        }
        return scenes;
    }

    static Quaterniond randomRotation(Random random) {
        return new Quaterniond(2 * random.nextDouble() - 1, 2 * random.nextDouble() - 1, 2 * random.nextDouble() - 1,
            2 * random.nextDouble() - 1).normalize();
    }

    static ConvexHull octagonPrism(double scaleM, double halfHeightM) {
        double[][] xy = {{2, 1}, {1, 2}, {-1, 2}, {-2, 1}, {-2, -1}, {-1, -2}, {1, -2}, {2, -1}};
        double[] v = new double[48];
        for (int i = 0; i < 8; i++) {
            v[3 * i] = scaleM * xy[i][0];
            v[3 * i + 1] = scaleM * xy[i][1];
            v[3 * i + 2] = -halfHeightM;
            v[3 * (8 + i)] = scaleM * xy[i][0];
            v[3 * (8 + i) + 1] = scaleM * xy[i][1];
            v[3 * (8 + i) + 2] = halfHeightM;
        }
        int[][] faces = new int[10][];
        faces[0] = new int[] {8, 9, 10, 11, 12, 13, 14, 15};
        faces[1] = new int[] {0, 1, 2, 3, 4, 5, 6, 7};
        for (int i = 0; i < 8; i++) {
            faces[2 + i] = new int[] {i, (i + 1) % 8, 8 + (i + 1) % 8, 8 + i};
        }
        return Hulls.of(v, faces);
    }
}
