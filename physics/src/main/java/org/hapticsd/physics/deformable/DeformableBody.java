package org.hapticsd.physics.deformable;

import org.joml.Vector3d;

/**
 * A body whose shape is its nodes' positions (a mass–spring body, a string): the second kind of body of a
 * {@link org.hapticsd.physics.PhysicsWorld}, stepped inside the same step as the rigid bodies (seams.md §B, as
 * Bullet's soft-body solver). The world finds where its nodes, each a sphere of {@link #nodeRadiusM}, touch rigid
 * bodies and the tool, pushes the nodes with {@link #applyNodeForce} and the bodies with the opposite force, then
 * calls {@link #step}. Implementations live outside the rigid core (module {@code physics-deformable}), which
 * knows them only through this interface.
 *
 * <p>Loop thread only; no method allocates once the body is built.
 */
public interface DeformableBody {
    /** The name in the scene file, for the CSV and the stream. */
    String name();

    int nodeCount();

    /** Radius of each node's collision sphere, m (> 0). */
    double nodeRadiusM();

    /** Mass of a node, kg: what bounds the coupling stiffness for a stable explicit step. */
    double nodeMassKg(int node);

    /** Whether the node is held in place (a pinned corner): the world does not push it. */
    boolean nodePinned(int node);

    /** Node position now, world frame, m, into {@code destM}. */
    Vector3d nodePosition(int node, Vector3d destM);

    /** Node velocity now, world frame, m/s, into {@code destMps}. */
    Vector3d nodeVelocity(int node, Vector3d destMps);

    /** Adds a force on a node, N, acting over the next {@link #step}. */
    void applyNodeForce(int node, double fxN, double fyN, double fzN);

    /**
     * The grasp on {@code node} for the next {@link #step}, after its force at the step's start has been applied with
     * {@link #applyNodeForce}: a spring {@code k} and damper {@code b} to a point at ({@code x}, {@code y}, {@code z}),
     * m, moving at ({@code vx}, {@code vy}, {@code vz}), m/s. A body that splits a step into substeps evaluates the
     * grasp again at each from its own state; the default keeps the first force over the whole step.
     */
    default void grasp(int node, double x, double y, double z, double vx, double vy, double vz, double k, double b) {
    }

    /** Pairs of node indices to draw as lines (springs, a string's segments); a new array, for a viewer at load. */
    int[] edges();

    /** Triples of node indices to draw as a surface (a cloth), counter-clockwise seen from its front; may be empty. */
    int[] triangles();

    /** Advances the body by {@code dtS} under its own forces and those applied since the last step. */
    void step(double dtS);
}
