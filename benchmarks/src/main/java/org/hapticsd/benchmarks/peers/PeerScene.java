package org.hapticsd.benchmarks.peers;

import java.util.Locale;
import org.hapticsd.server.scene.SpherePile;

/**
 * One scene of the peer benchmark, described once so that every engine builds the same bodies: a floor plane at
 * {@code z = 0}, optional static box walls, and identical dynamic bodies (all spheres or all cubes) of one mass,
 * friction {@link #FRICTION} and restitution 0, under gravity {@code −9.81 z}, stepped at {@link #DT_S}.
 *
 * <p>Our engine reads the same scene as a scene file ({@link #yaml()}), through the product's loader and builder;
 * the peers build it from {@link #centreM}, {@link #wall} and the sizes.
 *
 * <p>The protocol of every scene (the validation issue's, for the pile): {@link #SETTLE_S} of settling from the
 * start, untimed, then the steps of the next {@link #TIMED_S} are timed and their penetration recorded.
 *
 * <ul>
 *   <li>{@code pile-N}: {@link SpherePile}{@code (N)}, N spheres of radius 0.05 m and 1 kg dropped into an open
 *       1 m box; {@code pile-200} is the scene, 50 … 800 its scale series.</li>
 *   <li>{@code stack-10}: ten cubes of 0.1 m edge and 1 kg stacked on the floor, centres at
 *       {@code z = 0.05 + 0.1·k}, touching at the start. Defined here until {@code CubeStack} (being written next to
 *       SpherePile on another branch) is merged; it should then come from there.</li>
 * </ul>
 */
public final class PeerScene {
    /** Time step of every engine, s: the haptic loop's 1 kHz. */
    public static final double DT_S = 0.001;
    public static final double GRAVITY_MPS2 = 9.81;
    /** Settling before timing starts, s. */
    public static final double SETTLE_S = 3.0;
    /** Timed window after settling, s. */
    public static final double TIMED_S = 2.0;
    /** Coulomb friction coefficient of every pair of surfaces. */
    public static final double FRICTION = 0.5;

    public static final int STACK_CUBES = 10;
    public static final double CUBE_EDGE_M = 0.1;
    public static final double CUBE_MASS_KG = 1.0;
    /** Where our scene files park the tool: the mapping's origin, 2 m up, clear of both scenes. */
    private static final double TOOL_PARK_Z_M = 2.0;

    private final String name;
    private final boolean cubes;
    private final double sizeM;
    private final double massKg;
    private final double[] centresM;
    private final int walls;
    private final String yaml;

    private PeerScene(String name, boolean cubes, double sizeM, double massKg, double[] centresM, int walls,
                      String yaml) {
        this.name = name;
        this.cubes = cubes;
        this.sizeM = sizeM;
        this.massKg = massKg;
        this.centresM = centresM;
        this.walls = walls;
        this.yaml = yaml;
    }

    /** {@code stack-10} or {@code pile-N} (N from 1 to 10,000). */
    public static PeerScene named(String name) {
        if (name.equals("stack-" + STACK_CUBES)) {
            return stack();
        }
        if (name.startsWith("pile-")) {
            int spheres;
            try {
                spheres = Integer.parseInt(name.substring("pile-".length()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("scene '" + name + "': expected pile-N with N a number", e);
            }
            return pile(new SpherePile(spheres));
        }
        throw new IllegalArgumentException("scene '" + name + "': expected stack-10 or pile-N");
    }

    private static PeerScene pile(SpherePile pile) {
        return new PeerScene("pile-" + pile.spheres(), false, SpherePile.RADIUS_M, SpherePile.MASS_KG,
            pile.centres(), 4, pile.yaml());
    }

    private static PeerScene stack() {
        double[] c = new double[3 * STACK_CUBES];
        for (int k = 0; k < STACK_CUBES; k++) {
            c[3 * k + 2] = 0.5 * CUBE_EDGE_M + CUBE_EDGE_M * k;
        }
        return new PeerScene("stack-" + STACK_CUBES, true, 0.5 * CUBE_EDGE_M, CUBE_MASS_KG, c, 0, stackYaml(c));
    }

    /** The stack as a scene file, in SpherePile's layout: floor, cubes, LCP contacts, the tool parked above. */
    private static String stackYaml(double[] c) {
        StringBuilder y = new StringBuilder(String.format(Locale.ROOT, """
            # %d cubes of %s m edge and %s kg (restitution 0, friction %s) stacked on a floor, touching at the start.
            # Written by PeerScene for the peer benchmark, which builds the same stack in ode4j and Bullet.
            name: stack-%d
            rateHz: 1000

            device:
              initialPosition: [0.0, 0.0, 0.0]
              hand:
                target: [0.0, 0.0, 0.0]

            mapping:
              origin: [0.0, 0.0, %s]

            tool:
              radiusM: 0.005

            contact:
              mode: lcp

            contactModes:
              - {body: tool, mode: penalty}

            bodies:
              - name: floor
                shape: {type: plane, normal: [0.0, 0.0, 1.0]}
                position: [0.0, 0.0, 0.0]
                material: {elasticity: 0.0, staticFriction: %s, dynamicFriction: %s}
            """, STACK_CUBES, CUBE_EDGE_M, CUBE_MASS_KG, FRICTION, STACK_CUBES, TOOL_PARK_Z_M, FRICTION, FRICTION));
        double h = 0.5 * CUBE_EDGE_M;
        for (int k = 0; k < STACK_CUBES; k++) {
            y.append(String.format(Locale.ROOT, """
                  - name: cube%d
                    motion: dynamic
                    shape: {type: box, halfExtents: [%s, %s, %s]}
                    position: [%s, %s, %s]
                    massKg: %s
                    material: {elasticity: 0.0, staticFriction: %s, dynamicFriction: %s}
                """, k, h, h, h, c[3 * k], c[3 * k + 1], c[3 * k + 2], CUBE_MASS_KG, FRICTION, FRICTION));
        }
        return y.toString();
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

    public int bodies() {
        return centresM.length / 3;
    }

    /** Start centre of dynamic body {@code body}, component {@code axis} (0 x, 1 y, 2 z), m. */
    public double centreM(int body, int axis) {
        return centresM[3 * body + axis];
    }

    /** Number of static box walls (four for the pile, none for the stack). */
    public int walls() {
        return walls;
    }

    /** Wall {@code w}: centre x y z and half extents x y z, m. */
    public double[] wall(int w) {
        return SpherePile.wall(w);
    }

    /** The scene file our engine loads. */
    public String yaml() {
        return yaml;
    }

    /** Steps of the settling before the timed window. */
    public static int settleSteps() {
        return (int) Math.round(SETTLE_S / DT_S);
    }

    /** Steps of the timed window. */
    public static int timedSteps() {
        return (int) Math.round(TIMED_S / DT_S);
    }
}
