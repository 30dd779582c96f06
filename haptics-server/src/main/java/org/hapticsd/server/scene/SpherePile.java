package org.hapticsd.server.scene;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The physics validation's pile (issue 3, "Performance"): {@code spheres} spheres of radius 0.05 m and 1 kg,
 * restitution 0, friction 0.5, dropped from a 9 × 9 grid, layer above layer (the lowest centres 0.10 m above the
 * floor), into an open box 1 m × 1 m inside whose floor and four walls are 1.5 m high; dt = 1 ms. 200 spheres fill
 * three layers minus 43; the scale series (50 … 800) fills as many layers as it needs (800: ten).
 *
 * <p>One definition for the scene file ({@link #yaml()}, what {@code ./hapticsd scene pile} writes) and for the peer
 * benchmark, which builds the same bodies in ode4j and Bullet from {@link #centreM}: the engines are compared on
 * the same pile. Each sphere's start is shifted by up to {@link #JITTER_M} in x and y (seeded, the same every time):
 * a perfect grid would drop perfect columns, an unstable equilibrium that a deterministic solver keeps standing, and
 * no pile would form.
 */
public record SpherePile(int spheres) {
    public static final double RADIUS_M = 0.05;
    public static final double MASS_KG = 1.0;
    public static final double FRICTION = 0.5;
    public static final double ELASTICITY = 0.0;
    /** Inside width of the box, m. */
    public static final double BOX_INSIDE_M = 1.0;
    public static final double WALL_HEIGHT_M = 1.5;
    public static final double WALL_THICKNESS_M = 0.1;
    public static final int PER_ROW = 9;
    /** Centre to centre in the grid, m: 9 × 0.11 = 0.99 m fits the 1 m box with the spheres' 0.1 m diameter. */
    public static final double SPACING_M = 0.11;
    public static final double LOWEST_CENTRE_M = 0.10;
    public static final double JITTER_M = 0.005;
    /** Where the tool waits, m above the floor: above the walls and the highest layer, out of the way. */
    private static final double TOOL_PARK_HEIGHT_M = 2.0;
    private static final long SEED = 0x9113_5EEDL;

    /**
     * The most spheres the box takes: 17 full layers of the grid. The highest layer then starts with its tops at
     * 1.91 m, below the tool parked at {@value #TOOL_PARK_HEIGHT_M} m, and the settled pile stays inside the 1.5 m
     * walls (measured: after 6 s of {@code simulate} the highest sphere's top is at 1.437 m, every centre within
     * 0.451 m of the box's axis). Up to 10,000 were accepted, and from about 1,700 the pile would rise above the walls
     * (a tester's estimate at a packing fraction of 0.6).
     */
    public static final int MAX_SPHERES = 17 * PER_ROW * PER_ROW;

    public SpherePile {
        if (spheres < 1 || spheres > MAX_SPHERES) {
            throw new IllegalArgumentException("spheres must be 1.." + MAX_SPHERES + " (17 layers of 81: more would "
                + "start at the parked tool and overflow the 1.5 m walls once settled), got " + spheres);
        }
    }

    /** The sphere's name in the scene and its CSV columns: s000, s001, … (zero-padded to the count's width). */
    public String name(int sphere) {
        int width = Math.max(3, Integer.toString(spheres - 1).length());
        return String.format(Locale.ROOT, "s%0" + width + "d", sphere);
    }

    /** Start centre of sphere {@code i}, component {@code axis} (0 x, 1 y, 2 z), m. */
    public double centreM(int sphere, int axis) {
        double[] c = centres();
        return c[3 * sphere + axis];
    }

    /** Every start centre, x y z per sphere, m: row by row, layer by layer, from the bottom. */
    public double[] centres() {
        SplittableRandom jitter = new SplittableRandom(SEED);
        double[] c = new double[3 * spheres];
        int perLayer = PER_ROW * PER_ROW;
        double firstM = -0.5 * (PER_ROW - 1) * SPACING_M;
        for (int i = 0; i < spheres; i++) {
            int layer = i / perLayer;
            int inLayer = i % perLayer;
            c[3 * i] = firstM + (inLayer % PER_ROW) * SPACING_M + (2 * jitter.nextDouble() - 1) * JITTER_M;
            c[3 * i + 1] = firstM + (inLayer / PER_ROW) * SPACING_M + (2 * jitter.nextDouble() - 1) * JITTER_M;
            c[3 * i + 2] = LOWEST_CENTRE_M + layer * SPACING_M;
        }
        return c;
    }

    /**
     * The four walls as static boxes, outside the 1 m inside: wall {@code w} (0 +x, 1 −x, 2 +y, 3 −y) centre and
     * half extents, m.
     */
    public static double[] wall(int w) {
        double h = 0.5 * WALL_HEIGHT_M;
        double offsetM = 0.5 * BOX_INSIDE_M + 0.5 * WALL_THICKNESS_M;
        double longHalfM = 0.5 * BOX_INSIDE_M + WALL_THICKNESS_M;
        double sign = w % 2 == 0 ? 1.0 : -1.0;
        boolean alongX = w < 2;
        return alongX
            ? new double[] {sign * offsetM, 0.0, h, 0.5 * WALL_THICKNESS_M, longHalfM, h}
            : new double[] {0.0, sign * offsetM, h, longHalfM, 0.5 * WALL_THICKNESS_M, h};
    }

    /** The scene file: floor, four walls, the spheres by name, LCP contacts, the tool parked above the box. */
    public String yaml() {
        StringBuilder y = new StringBuilder();
        y.append(String.format(Locale.ROOT, """
            # %d %s (r = %s m, %s kg, restitution %s, friction %s) dropped from a %d x %d grid, %d per layer, the
            # lowest centres %s m above the floor, into an open box %s m x %s m inside with walls %s m high.
            # Written by `./hapticsd scene pile --spheres %d`; the benchmarks module builds the same pile in
            # ode4j and Bullet. Each start is shifted by up to %s m in x and y (seeded): a perfect grid would drop
            # columns that a deterministic solver keeps standing. The tool is parked above the box.
            name: pile-%d
            """, spheres, spheres == 1 ? "sphere" : "spheres", RADIUS_M, MASS_KG, ELASTICITY, FRICTION, PER_ROW,
            PER_ROW, PER_ROW * PER_ROW,
            LOWEST_CENTRE_M, BOX_INSIDE_M, BOX_INSIDE_M, WALL_HEIGHT_M, spheres, JITTER_M, spheres));
        y.append(GeneratedScenes.toolParkedAboveAnLcpFloor(TOOL_PARK_HEIGHT_M, ELASTICITY, FRICTION));
        String[] wallNames = {"wallPlusX", "wallMinusX", "wallPlusY", "wallMinusY"};
        for (int w = 0; w < 4; w++) {
            double[] b = wall(w);
            y.append(String.format(Locale.ROOT, """
                  - name: %s
                    shape: {type: box, halfExtents: [%s, %s, %s]}
                    position: [%s, %s, %s]
                    material: {elasticity: %s, staticFriction: %s, dynamicFriction: %s}
                """, wallNames[w], b[3], b[4], b[5], b[0], b[1], b[2], ELASTICITY, FRICTION, FRICTION));
        }
        double[] c = centres();
        for (int i = 0; i < spheres; i++) {
            y.append(String.format(Locale.ROOT, """
                  - name: %s
                    motion: dynamic
                    shape: {type: sphere, radiusM: %s}
                    position: [%.6f, %.6f, %.6f]
                    massKg: %s
                    material: {elasticity: %s, staticFriction: %s, dynamicFriction: %s}
                """, name(i), RADIUS_M, c[3 * i], c[3 * i + 1], c[3 * i + 2], MASS_KG, ELASTICITY, FRICTION,
                FRICTION));
        }
        return y.toString();
    }
}
