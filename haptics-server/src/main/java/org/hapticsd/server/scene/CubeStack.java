package org.hapticsd.server.scene;

import java.util.Locale;

/**
 * The physics validation's stack (issue 3, "Performance"): {@code cubes} cubes of 0.1 m edge and 1 kg, restitution
 * 0, friction 0.5, stacked on a floor, LCP contacts; dt = 1 ms. The benchmark stack is ten high
 * ({@link #BENCHMARK_CUBES}): the bottom contact carries ten times the top one's load, the classic test of an
 * iterative contact solver.
 *
 * <p>One definition for the scene file ({@link #yaml()}, what {@code ./hapticsd scene stack} writes) and for the peer
 * benchmark, which builds the same bodies in other engines from {@link #centreM}, {@link #halfExtentM} and
 * {@link #orientation}: the engines are compared on the same stack.
 *
 * <p>The stack is built as a hand would, as the engine's own {@code StackingTest} builds it: each cube up to 2 mm
 * off the one below in x and y ({@link #OFFSET_X_M}, {@link #OFFSET_Y_M}, a fixed pattern of period 3), turned
 * alternately by ±1° about the vertical, each contact starting 0.1 mm deep. Rejected: a perfect column, faces and
 * edges exactly on one another. That start is degenerate for a box–box narrowphase (coincident edges clip into
 * points that rounding decides), so how far the top drifts depends on the last bit of the start positions rather
 * than on the solver: measured at 20 iterations, 0.68 mm over 10 s with centres 0.15000000000000002, 0.25 … and
 * 1.55 mm with 0.15, 0.25 …; the stack below drifts 0.04 mm.
 */
public record CubeStack(int cubes) {
    /** The stack of {@code ./hapticsd scene stack} and of the peer benchmark. */
    public static final int BENCHMARK_CUBES = 10;
    public static final double EDGE_M = 0.1;
    public static final double MASS_KG = 1.0;
    public static final double FRICTION = 0.5;
    public static final double ELASTICITY = 0.0;
    /** How far each contact starts inside, m: resting from the first step, within the 0.2 mm contact tolerance. */
    public static final double START_DEPTH_M = 1e-4;
    /** Offset of cube k in x is (k mod 3 − 1) times this, m. */
    public static final double OFFSET_X_M = 0.002;
    /** Offset of cube k in y is ((k + 1) mod 3 − 1) times this, m. */
    public static final double OFFSET_Y_M = 0.0015;
    /** Turn of the even cubes about +z, rad; the odd cubes are turned the other way. */
    public static final double YAW_RAD = Math.toRadians(1.0);
    /** Centre of the parked tool, m: above the benchmark stack's top (1 m) and out of its way. */
    public static final double TOOL_PARK_HEIGHT_M = 2.0;
    private static final double TENTHS_MM_PER_M = 10_000.0;

    public CubeStack {
        if (cubes < 1 || cubes > 1_000) {
            throw new IllegalArgumentException("cubes must be 1..1000, got " + cubes);
        }
    }

    /** The cube's name in the scene and its CSV columns, from the bottom: cube0 … cube9 (zero-padded to the count). */
    public String name(int cube) {
        int width = Integer.toString(cubes - 1).length();
        return String.format(Locale.ROOT, "cube%0" + width + "d", cube);
    }

    /** Start centre of cube {@code cube} (0 at the bottom), component {@code axis} (0 x, 1 y, 2 z), m. */
    public double centreM(int cube, int axis) {
        checkCube(cube);
        return switch (axis) {
            case 0 -> (cube % 3 - 1) * OFFSET_X_M;
            case 1 -> ((cube + 1) % 3 - 1) * OFFSET_Y_M;
            // Whole tenths of a millimetre (long arithmetic, exact) divided once: the double nearest the decimal
            // height, so the scene file and the benchmark both read 0.1498, where the same sum in metres gives
            // 0.14980000000000002.
            case 2 -> (cube * Math.round((EDGE_M - START_DEPTH_M) * TENTHS_MM_PER_M)
                + Math.round((0.5 * EDGE_M - START_DEPTH_M) * TENTHS_MM_PER_M)) / TENTHS_MM_PER_M;
            default -> throw new IndexOutOfBoundsException("axis " + axis);
        };
    }

    /** Every start centre, x y z per cube, m, from the bottom. */
    public double[] centres() {
        double[] c = new double[3 * cubes];
        for (int i = 0; i < cubes; i++) {
            for (int axis = 0; axis < 3; axis++) {
                c[3 * i + axis] = centreM(i, axis);
            }
        }
        return c;
    }

    /** Half the edge of cube {@code cube} along its body axis {@code axis} (0 x, 1 y, 2 z), m: all cubes are alike. */
    public double halfExtentM(int cube, int axis) {
        checkCube(cube);
        if (axis < 0 || axis > 2) {
            throw new IndexOutOfBoundsException("axis " + axis);
        }
        return 0.5 * EDGE_M;
    }

    /** Start turn of cube {@code cube} about +z, rad: +1° for the even cubes, −1° for the odd ones. */
    public double yawRad(int cube) {
        checkCube(cube);
        return cube % 2 == 0 ? YAW_RAD : -YAW_RAD;
    }

    /** Start orientation of cube {@code cube}, unit quaternion, component {@code i} in the order w, x, y, z. */
    public double orientation(int cube, int i) {
        double halfRad = 0.5 * yawRad(cube);
        return switch (i) {
            case 0 -> Math.cos(halfRad);
            case 1, 2 -> 0.0;
            case 3 -> Math.sin(halfRad);
            default -> throw new IndexOutOfBoundsException("component " + i);
        };
    }

    private void checkCube(int cube) {
        if (cube < 0 || cube >= cubes) {
            throw new IndexOutOfBoundsException("cube " + cube + " of " + cubes);
        }
    }

    /** The scene file: floor, the cubes by name from the bottom, LCP contacts, the tool parked above the stack. */
    public String yaml() {
        StringBuilder y = new StringBuilder();
        y.append(String.format(Locale.ROOT, """
            # %d cubes (edge %s m, %s kg, restitution %s, friction %s) stacked on a floor, LCP contacts: the bottom
            # contact carries %d times the top one's load. Built as a hand would: each cube up to 2 mm off the one
            # below, turned by ±1° about z, each contact starting %s mm deep (a perfect column is degenerate for the
            # box-box contact: rounding would decide how it drifts). Written by `./hapticsd scene stack`
            # (CubeStack); the peer benchmark builds the same stack in other engines. Read %s.px..pz: the top
            # cube stays where it starts. The tool is parked above the stack.
            name: cube-stack-%d
            """, cubes, EDGE_M, MASS_KG, ELASTICITY, FRICTION, cubes, START_DEPTH_M * 1e3, name(cubes - 1), cubes));
        y.append(GeneratedScenes.toolParkedAboveAnLcpFloor(TOOL_PARK_HEIGHT_M, ELASTICITY, FRICTION));
        for (int i = 0; i < cubes; i++) {
            y.append(String.format(Locale.ROOT, """
                  - name: %s
                    motion: dynamic
                    shape: {type: box, halfExtents: [%s, %s, %s]}
                    position: [%s, %s, %s]
                    orientation: [%s, %s, %s, %s]
                    massKg: %s
                    material: {elasticity: %s, staticFriction: %s, dynamicFriction: %s}
                """, name(i), halfExtentM(i, 0), halfExtentM(i, 1), halfExtentM(i, 2), centreM(i, 0), centreM(i, 1),
                centreM(i, 2), orientation(i, 0), orientation(i, 1), orientation(i, 2), orientation(i, 3), MASS_KG,
                ELASTICITY, FRICTION, FRICTION));
        }
        return y.toString();
    }
}
