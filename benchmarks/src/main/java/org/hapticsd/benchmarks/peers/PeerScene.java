package org.hapticsd.benchmarks.peers;

import org.hapticsd.server.scene.CubeStack;
import org.hapticsd.server.scene.SpherePile;

/**
 * One scene of the peer benchmark, described once so that every engine builds the same bodies: a floor plane at
 * {@code z = 0}, optional static box walls, and identical dynamic bodies (all spheres or all cubes) of one mass,
 * friction and restitution, under gravity {@code −9.81 z}, stepped at {@link #DT_S}. Every engine, ours included,
 * builds its world from {@link #centreM}, {@link #orientation}, {@link #wall} and the sizes, so the start poses
 * are the same doubles everywhere (Bullet rounds them to floats). No scene has a haptic tool.
 *
 * <p>The protocol of every scene (the validation issue's, for the pile): {@link #settleS()} of settling from the
 * start, untimed, then the steps of the next {@link #TIMED_S} are timed and their penetration recorded.
 *
 * <ul>
 *   <li>{@code pile-N}: {@link SpherePile}{@code (N)}, N spheres of radius 0.05 m and 1 kg dropped into an open
 *       1 m box; {@code pile-200} is the scene ({@code scenes/pile-200.yaml}), 50 … 800 its scale
 *       series.</li>
 *   <li>{@code wide-N}: the same spheres at the same depth instead of in the same box, to tell the engine's growth
 *       from the scene's (docs/performance.md): the box's inside is {@code √(N/200)} m wide, so its floor holds as
 *       many spheres per square metre as {@code pile-200}'s, and they drop from a grid of {@code ⌈9·√(N/200)⌉} per
 *       row at the pile's 0.11 m pitch, layer above layer (about 2.5 layers at every N); same jitter, seed, radius,
 *       mass and materials. Not the series: a measurement of what a constant-depth series gives.</li>
 *   <li>{@code stack-10}: {@link CubeStack}{@code (10)}, the stack of {@code scenes/cube-stack.yaml}: ten cubes of
 *       0.1 m edge and 1 kg, each up to 2 mm off the one below and turned by ±1°, every contact starting 0.1 mm
 *       deep. Rejected: a perfect column, which {@link CubeStack} explains is degenerate for a box–box
 *       narrowphase.</li>
 * </ul>
 */
public final class PeerScene {
    /** Time step of every engine, s: the haptic loop's 1 kHz. */
    public static final double DT_S = 0.001;
    public static final double GRAVITY_MPS2 = 9.81;
    /** Settling before timing starts, s, unless {@value #SETTLE_PROPERTY} says otherwise. */
    public static final double SETTLE_S = 3.0;
    /** The system property that overrides {@link #SETTLE_S}, seconds. */
    public static final String SETTLE_PROPERTY = "settle.s";
    /** Timed window after settling, s. */
    public static final double TIMED_S = 2.0;

    private final String name;
    private final boolean cubes;
    private final double sizeM;
    private final double massKg;
    private final double friction;
    private final double restitution;
    private final double[] centresM;
    /** Unit quaternion per body, w x y z. */
    private final double[] orientations;
    private final int walls;
    /** Per wall: centre x y z and half extents x y z, m. */
    private final double[][] wallBoxes;

    private PeerScene(String name, boolean cubes, double sizeM, double massKg, double friction, double restitution,
                      double[] centresM, double[] orientations, int walls) {
        this(name, cubes, sizeM, massKg, friction, restitution, centresM, orientations, walls, pileWalls(walls));
    }

    private PeerScene(String name, boolean cubes, double sizeM, double massKg, double friction, double restitution,
                      double[] centresM, double[] orientations, int walls, double[][] wallBoxes) {
        this.wallBoxes = wallBoxes;
        this.name = name;
        this.cubes = cubes;
        this.sizeM = sizeM;
        this.massKg = massKg;
        this.friction = friction;
        this.restitution = restitution;
        this.centresM = centresM;
        this.orientations = orientations;
        this.walls = walls;
    }

    /** {@code stack-10}, {@code pile-N} (N up to {@link SpherePile#MAX_SPHERES}) or {@code wide-N} (up to 10,000). */
    public static PeerScene named(String name) {
        if (name.equals("stack-" + CubeStack.BENCHMARK_CUBES)) {
            return stack(new CubeStack(CubeStack.BENCHMARK_CUBES));
        }
        if (name.startsWith("pile-")) {
            return pile(new SpherePile(spheres(name, "pile-")));
        }
        if (name.startsWith("wide-")) {
            return wide(spheres(name, "wide-"));
        }
        throw new IllegalArgumentException("scene '" + name + "': expected stack-" + CubeStack.BENCHMARK_CUBES
            + ", pile-N or wide-N");
    }

    /** N of {@code PREFIX-N}, 1..10,000. */
    private static int spheres(String name, String prefix) {
        int spheres;
        try {
            spheres = Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("scene '" + name + "': expected " + prefix + "N with N a number", e);
        }
        if (spheres < 1 || spheres > 10_000) {
            throw new IllegalArgumentException("scene '" + name + "': N must be 1..10000");
        }
        return spheres;
    }

    private static double[][] pileWalls(int walls) {
        double[][] boxes = new double[walls][];
        for (int w = 0; w < walls; w++) {
            boxes[w] = SpherePile.wall(w);
        }
        return boxes;
    }

    /** {@code wide-N}: see the class comment. */
    private static PeerScene wide(int spheres) {
        double scale = Math.sqrt(spheres / 200.0);
        int perRow = (int) Math.ceil(SpherePile.PER_ROW * scale);
        double insideM = perRow * SpherePile.SPACING_M + 0.01;
        java.util.SplittableRandom jitter = new java.util.SplittableRandom(0x9113_5EEDL);
        double[] c = new double[3 * spheres];
        double firstM = -0.5 * (perRow - 1) * SpherePile.SPACING_M;
        for (int i = 0; i < spheres; i++) {
            int layer = i / (perRow * perRow);
            int inLayer = i % (perRow * perRow);
            c[3 * i] = firstM + (inLayer % perRow) * SpherePile.SPACING_M
                + (2 * jitter.nextDouble() - 1) * SpherePile.JITTER_M;
            c[3 * i + 1] = firstM + (inLayer / perRow) * SpherePile.SPACING_M
                + (2 * jitter.nextDouble() - 1) * SpherePile.JITTER_M;
            c[3 * i + 2] = SpherePile.LOWEST_CENTRE_M + layer * SpherePile.SPACING_M;
        }
        double[][] walls = new double[4][];
        double h = 0.5 * SpherePile.WALL_HEIGHT_M;
        double offsetM = 0.5 * insideM + 0.5 * SpherePile.WALL_THICKNESS_M;
        double longHalfM = 0.5 * insideM + SpherePile.WALL_THICKNESS_M;
        for (int w = 0; w < 4; w++) {
            double sign = w % 2 == 0 ? 1.0 : -1.0;
            walls[w] = w < 2
                ? new double[] {sign * offsetM, 0.0, h, 0.5 * SpherePile.WALL_THICKNESS_M, longHalfM, h}
                : new double[] {0.0, sign * offsetM, h, longHalfM, 0.5 * SpherePile.WALL_THICKNESS_M, h};
        }
        double[] q = new double[4 * spheres];
        for (int i = 0; i < spheres; i++) {
            q[4 * i] = 1.0;
        }
        return new PeerScene("wide-" + spheres, false, SpherePile.RADIUS_M, SpherePile.MASS_KG, SpherePile.FRICTION,
            SpherePile.ELASTICITY, c, q, 4, walls);
    }

    private static PeerScene pile(SpherePile pile) {
        double[] q = new double[4 * pile.spheres()];
        for (int i = 0; i < pile.spheres(); i++) {
            q[4 * i] = 1.0;
        }
        return new PeerScene("pile-" + pile.spheres(), false, SpherePile.RADIUS_M, SpherePile.MASS_KG,
            SpherePile.FRICTION, SpherePile.ELASTICITY, pile.centres(), q, 4);
    }

    private static PeerScene stack(CubeStack stack) {
        double[] q = new double[4 * stack.cubes()];
        for (int i = 0; i < stack.cubes(); i++) {
            for (int k = 0; k < 4; k++) {
                q[4 * i + k] = stack.orientation(i, k);
            }
        }
        return new PeerScene("stack-" + stack.cubes(), true, stack.halfExtentM(0, 0), CubeStack.MASS_KG,
            CubeStack.FRICTION, CubeStack.ELASTICITY, stack.centres(), q, 0);
    }

    public String name() {
        return name;
    }

    /** True when the dynamic bodies are cubes, false when they are spheres. */
    public boolean cubes() {
        return cubes;
    }

    /** Sphere radius or cube half edge, m. */
    public double sizeM() {
        return sizeM;
    }

    public double massKg() {
        return massKg;
    }

    /** Coulomb friction coefficient of every pair of surfaces (static and dynamic alike). */
    public double friction() {
        return friction;
    }

    /** Coefficient of restitution of every pair of surfaces. */
    public double restitution() {
        return restitution;
    }

    public int bodies() {
        return centresM.length / 3;
    }

    /** Start centre of dynamic body {@code body}, component {@code axis} (0 x, 1 y, 2 z), m. */
    public double centreM(int body, int axis) {
        return centresM[3 * body + axis];
    }

    /** Start orientation of dynamic body {@code body}, unit quaternion, component {@code i} in the order w x y z. */
    public double orientation(int body, int i) {
        return orientations[4 * body + i];
    }

    /** Number of static box walls (four for the pile, none for the stack). */
    public int walls() {
        return walls;
    }

    /** Wall {@code w}: centre x y z and half extents x y z, m. */
    public double[] wall(int w) {
        return wallBoxes[w].clone();
    }

    /**
     * The settling before the timed window, s: {@link #SETTLE_S}, or the system property {@value #SETTLE_PROPERTY}
     * for a measurement of how the protocol's settling changes the numbers (docs/performance.md, *Sixth session*:
     * the larger piles are still settling at 3 s). JMH's forks inherit the launching JVM's {@code -D} flags.
     */
    public static double settleS() {
        String value = System.getProperty(SETTLE_PROPERTY);
        if (value == null) {
            return SETTLE_S;
        }
        double settleS = Double.parseDouble(value);
        if (!(settleS >= 0.0) || !Double.isFinite(settleS)) {
            throw new IllegalArgumentException(
                SETTLE_PROPERTY + " must be a finite number of seconds >= 0, got " + value);
        }
        return settleS;
    }

    /** Steps of the settling before the timed window, {@link #settleS()}. */
    public static int settleSteps() {
        return (int) Math.round(settleS() / DT_S);
    }

    /** Steps of the timed window. */
    public static int timedSteps() {
        return (int) Math.round(TIMED_S / DT_S);
    }
}
