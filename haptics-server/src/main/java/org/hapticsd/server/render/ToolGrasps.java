package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.deformable.DeformableBody;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Grabbing bodies with the stylus's buttons: while a grasp's button is held, the tool holds what it took when the
 * button went down, through a spring and damper felt through the same safety layer as every contact; letting go of
 * the button lets go. A deformable body's grasp takes the free node nearest the tool's centre within reach
 * ({@link PhysicsWorld#holdDeformableNode}); a dynamic rigid body's takes the body when its surface is within reach of
 * the tool's centre, anchored where the tool's centre is ({@link PhysicsWorld#holdBody}: the body hangs from that
 * point and the hand feels its weight and inertia). When one press reaches several, the nearest wins (a node's
 * distance from the tool's centre against a surface's).
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

    private final int[] rigid;
    private final String[] rigidField;
    private final int[] rigidMask;
    private final SphereShape[] rigidReach;
    private final double[] rigidStiffnessNpm;
    private final double[] rigidDampingNspm;
    private final boolean[] rigidWasPressed;
    /** The rigid grasp whose body the tool holds, or −1. */
    private int rigidHeld = -1;
    /** Presses that took a node or a body, since construction. */
    private long taken;

    /**
     * One grasp per entry: deformable body index, the buttons that grab (a bit mask), the reach from the tool's
     * centre to a node's, m, and the grasp's spring and damper, N/m and N·s/m.
     */
    public ToolGrasps(int[] deformable, int[] buttonMask, double[] reachM, double[] stiffnessNpm,
                      double[] dampingNspm) {
        this(deformable, buttonMask, reachM, stiffnessNpm, dampingNspm, new Rigid[0]);
    }

    /**
     * A grasp of a dynamic rigid body: the body's index in the world, the scene field it was set by (for messages,
     * e.g. {@code bodies[2]}), the buttons that grab (a bit mask), the reach from the tool's centre to the body's
     * surface, m, and the hold's spring and damper, N/m and N·s/m.
     */
    public record Rigid(int body, String field, int buttonMask, double reachM, double stiffnessNpm,
                        double dampingNspm) {
        public Rigid {
            if (!(reachM > 0.0) || !Double.isFinite(reachM)) {
                throw new IllegalArgumentException("a grab's reach must be finite and > 0, got " + reachM + " m");
            }
        }
    }

    /** Deformable grasps as {@link #ToolGrasps(int[], int[], double[], double[], double[])}, and rigid ones. */
    public ToolGrasps(int[] deformable, int[] buttonMask, double[] reachM, double[] stiffnessNpm,
                      double[] dampingNspm, Rigid[] rigid) {
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
        int r = rigid.length;
        this.rigid = new int[r];
        this.rigidField = new String[r];
        this.rigidMask = new int[r];
        this.rigidReach = new SphereShape[r];
        this.rigidStiffnessNpm = new double[r];
        this.rigidDampingNspm = new double[r];
        this.rigidWasPressed = new boolean[r];
        for (int i = 0; i < r; i++) {
            this.rigid[i] = rigid[i].body();
            this.rigidField[i] = rigid[i].field();
            this.rigidMask[i] = rigid[i].buttonMask();
            this.rigidReach[i] = new SphereShape(rigid[i].reachM());
            this.rigidStiffnessNpm[i] = rigid[i].stiffnessNpm();
            this.rigidDampingNspm[i] = rigid[i].dampingNspm();
        }
    }

    /** No grasps. */
    public static ToolGrasps none() {
        return NONE;
    }

    /** How many deformable bodies can be grabbed. */
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

    /** How many rigid bodies can be grabbed. */
    public int rigidCount() {
        return rigid.length;
    }

    /** The rigid body rigid grasp {@code i} grabs (its index in the world). */
    public int rigidBody(int i) {
        return rigid[i];
    }

    /** The scene field that set rigid grasp {@code i}, e.g. {@code bodies[2]}. */
    public String rigidField(int i) {
        return rigidField[i];
    }

    /** Rigid grasp {@code i}'s spring, N/m. */
    public double rigidStiffnessNpm(int i) {
        return rigidStiffnessNpm[i];
    }

    /** Rigid grasp {@code i}'s damper, N·s/m. */
    public double rigidDampingNspm(int i) {
        return rigidDampingNspm[i];
    }

    /** How many presses have taken a node or a body since the scene was built. */
    public long taken() {
        return taken;
    }

    /** The rigid body the tool holds now, or −1. */
    public int heldRigidBody() {
        return rigidHeld < 0 ? -1 : rigid[rigidHeld];
    }

    /**
     * Presses and releases since the last tick, for the tool at {@code toolPositionM}. Loop thread.
     *
     * @return whether the tool took or let go of something
     */
    public boolean update(PhysicsWorld world, int toolBody, Vector3dc toolPositionM, int buttons) {
        boolean changed = false;
        int best = -1;
        int bestNode = -1;
        boolean bestRigid = false;
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
                changed = true;
            }
            wasPressed[i] = pressed;
        }
        for (int i = 0; i < rigid.length; i++) {
            boolean pressed = (buttons & rigidMask[i]) != 0;
            if (pressed && !rigidWasPressed[i] && rigidHeld < 0) {
                double depthM = world.sphereDepthM(rigid[i], rigidReach[i], toolPositionM);
                // The tool's centre is reach − depth from the surface (negative: inside it).
                double d = Math.max(0.0, rigidReach[i].radiusM() - depthM);
                if (depthM >= 0.0 && d < bestDistance) {
                    best = i;
                    bestRigid = true;
                    bestDistance = d;
                }
            } else if (!pressed && rigidWasPressed[i] && rigidHeld == i) {
                world.releaseBody(toolBody);
                rigidHeld = -1;
                changed = true;
            }
            rigidWasPressed[i] = pressed;
        }
        if (bestRigid) {
            world.holdBody(toolBody, rigid[best], rigidStiffnessNpm[best], rigidDampingNspm[best]);
            rigidHeld = best;
            taken++;
        } else if (best >= 0) {
            world.holdDeformableNode(deformable[best], bestNode, toolBody, stiffnessNpm[best], dampingNspm[best]);
            holding[best] = true;
            taken++;
        }
        return changed || best >= 0;
    }
}
