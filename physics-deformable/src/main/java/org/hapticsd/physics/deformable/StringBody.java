package org.hapticsd.physics.deformable;

import org.joml.Vector3d;

/**
 * Source 001's string as a {@link DeformableBody} of the world: an {@link ElasticString} in the vertical plane
 * y = origin.y, its left end held at {@code origin}, drawn and touched at {@code nodes} points evenly spaced along it
 * (node 0 is the held end). Forces on a node act at its sample point in x and z (the string is planar: the y part
 * is dropped); the tool can push a node or hold one ({@code PhysicsWorld.holdDeformableNode}), and feels the string.
 * Velocities are the positions' change over the last step. Loop thread; allocates only at construction.
 */
public final class StringBody implements DeformableBody {
    private final String name;
    private final ElasticString string;
    private final double[] originM;
    private final double nodeRadiusM;
    private final int nodes;
    private final int stride;
    private final double nodeMassKg;
    private final double[] xz;
    private final double[] previousXz;
    private double lastDtS = Double.NaN;
    private EndPath endPath;
    private final double[] drive = new double[4];
    private double timeS;

    /**
     * @param nodes points the world sees (2 or more); the string's samples must be a multiple of {@code nodes − 1}
     */
    public StringBody(String name, ElasticString string, double[] originM, int nodes, double nodeRadiusM,
                      double densityKgpm, double lengthM) {
        if (nodes < 2 || string.samples() % (nodes - 1) != 0) {
            throw new IllegalArgumentException(name + ": nodes must be at least 2 with the samples ("
                + string.samples() + ") a multiple of nodes − 1, got " + nodes);
        }
        this.name = name;
        this.string = string;
        this.originM = originM.clone();
        this.nodeRadiusM = nodeRadiusM;
        this.nodes = nodes;
        this.stride = string.samples() / (nodes - 1);
        this.nodeMassKg = densityKgpm * lengthM / (nodes - 1);
        this.xz = new double[2 * (string.samples() + 1)];
        this.previousXz = new double[xz.length];
        string.positions(xz);
        System.arraycopy(xz, 0, previousXz, 0, xz.length);
    }

    public ElasticString string() {
        return string;
    }

    /** Drives the right end along {@code path} (relative to the left end, x and z), from the body's time 0. */
    public void driveEnd(EndPath path) {
        this.endPath = java.util.Objects.requireNonNull(path, "path");
    }

    /** Seconds stepped so far. */
    public double timeS() {
        return timeS;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public double nodeRadiusM() {
        return nodeRadiusM;
    }

    /** The string's mass shared among the nodes' spans, kg: what bounds a coupling on one. */
    @Override
    public double nodeMassKg(int node) {
        return nodeMassKg;
    }

    @Override
    public boolean nodePinned(int node) {
        return node == 0;
    }

    @Override
    public Vector3d nodePosition(int node, Vector3d destM) {
        int j = node * stride;
        return destM.set(originM[0] + xz[2 * j], originM[1], originM[2] + xz[2 * j + 1]);
    }

    @Override
    public Vector3d nodeVelocity(int node, Vector3d destMps) {
        if (!(lastDtS > 0)) {
            return destMps.zero();
        }
        int j = node * stride;
        return destMps.set((xz[2 * j] - previousXz[2 * j]) / lastDtS, 0.0,
            (xz[2 * j + 1] - previousXz[2 * j + 1]) / lastDtS);
    }

    @Override
    public void applyNodeForce(int node, double fxN, double fyN, double fzN) {
        string.applyForce(node * stride, fxN, fzN);
    }

    /** The string's substeps evaluate the grasp again (in its plane: the y parts are dropped, as a force's are). */
    @Override
    public void grasp(int node, double x, double y, double z, double vx, double vy, double vz, double k, double b) {
        string.grasp(node * stride, x - originM[0], z - originM[2], vx, vz, k, b);
    }

    @Override
    public int[] edges() {
        int[] out = new int[2 * (nodes - 1)];
        for (int i = 0; i < nodes - 1; i++) {
            out[2 * i] = i;
            out[2 * i + 1] = i + 1;
        }
        return out;
    }

    @Override
    public int[] triangles() {
        return new int[0];
    }

    @Override
    public void step(double dtS) {
        System.arraycopy(xz, 0, previousXz, 0, xz.length);
        if (endPath != null) {
            endPath.sample(timeS, drive);
            string.driveEnd(drive[0], drive[1], drive[2], drive[3]);
        }
        string.step(dtS);
        timeS += dtS;
        string.positions(xz);
        lastDtS = dtS;
    }
}
