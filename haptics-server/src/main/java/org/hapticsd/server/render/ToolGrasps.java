package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.deformable.DeformableBody;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Grabbing deformable bodies with the stylus's buttons: while a grasp's button is held, the tool holds the node
 * nearest its centre that was within reach when the button went down ({@link PhysicsWorld#holdDeformableNode}: a
 * spring and damper between node and tool, felt through the same safety layer as every contact); letting go of the
 * button lets go of the node. When one press reaches nodes of several bodies, the nearest node wins.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class ToolGrasps {
    private static final ToolGrasps NONE = new ToolGrasps(new int[0], new int[0], new double[0], new double[0],
        new double[0]);

    private final int[] deformable;
    private final int[] buttonMask;
    private final double[] reachM;
    private final double[] stiffnessNpm;
    private final double[] dampingNspm;
    private final boolean[] wasPressed;
    private final boolean[] holding;
    private final Vector3d node = new Vector3d();

    /**
     * One grasp per entry: deformable body index, the buttons that grab (a bit mask), the reach from the tool's
     * centre to a node's, m, and the grasp's spring and damper, N/m and N·s/m.
     */
    public ToolGrasps(int[] deformable, int[] buttonMask, double[] reachM, double[] stiffnessNpm,
                      double[] dampingNspm) {
        int n = deformable.length;
        if (buttonMask.length != n || reachM.length != n || stiffnessNpm.length != n || dampingNspm.length != n) {
            throw new IllegalArgumentException("one button mask, reach, stiffness and damping per grasp");
        }
        this.deformable = deformable.clone();
        this.buttonMask = buttonMask.clone();
        this.reachM = reachM.clone();
        this.stiffnessNpm = stiffnessNpm.clone();
        this.dampingNspm = dampingNspm.clone();
        this.wasPressed = new boolean[n];
        this.holding = new boolean[n];
    }

    /** No grasps. */
    public static ToolGrasps none() {
        return NONE;
    }

    public int count() {
        return deformable.length;
    }

    /** The deformable body grasp {@code i} grabs (its index in the world). */
    public int deformable(int i) {
        return deformable[i];
    }

    /** Grasp {@code i}'s spring, N/m. */
    public double stiffnessNpm(int i) {
        return stiffnessNpm[i];
    }

    /** Grasp {@code i}'s damper, N·s/m. */
    public double dampingNspm(int i) {
        return dampingNspm[i];
    }

    /** Whether grasp {@code i} holds a node now. */
    public boolean holding(int i) {
        return holding[i];
    }

    /** Presses and releases since the last tick, for the tool at {@code toolPositionM}. Loop thread. */
    public void update(PhysicsWorld world, int toolBody, Vector3dc toolPositionM, int buttons) {
        int best = -1;
        int bestNode = -1;
        double bestDistance = Double.POSITIVE_INFINITY;
        for (int i = 0; i < deformable.length; i++) {
            boolean pressed = (buttons & buttonMask[i]) != 0;
            if (pressed && !wasPressed[i]) {
                DeformableBody body = world.deformable(deformable[i]);
                for (int k = 0; k < body.nodeCount(); k++) {
                    double d = body.nodePosition(k, node).distance(toolPositionM);
                    if (d <= reachM[i] && d < bestDistance && !body.nodePinned(k)) {
                        best = i;
                        bestNode = k;
                        bestDistance = d;
                    }
                }
            } else if (!pressed && wasPressed[i] && holding[i]) {
                world.holdDeformableNode(deformable[i], -1, toolBody, 0.0, 0.0);
                holding[i] = false;
            }
            wasPressed[i] = pressed;
        }
        if (best >= 0) {
            world.holdDeformableNode(deformable[best], bestNode, toolBody, stiffnessNpm[best], dampingNspm[best]);
            holding[best] = true;
        }
    }
}
