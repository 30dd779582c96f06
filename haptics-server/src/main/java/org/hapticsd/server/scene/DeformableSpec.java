package org.hapticsd.server.scene;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hapticsd.physics.deformable.MassSpringSpec;
import org.hapticsd.server.render.Numbers;

/**
 * {@code deformables[]}: a deformable body (issue 13). Today one type, {@code mass-spring} (source 004): point masses
 * and springs, given one by one ({@code nodes}, {@code springs}) or as a {@code grid} (a cloth), stepped by the
 * integrator named in {@code integrator}. Its nodes touch the rigid bodies and the tool through a penalty coupling
 * ({@code couplingStiffnessNpm}, {@code couplingDampingNspm}). See docs/scenes.md, "deformables".
 */
public final class DeformableSpec extends Located {
    public static final String TYPES = "mass-spring or string";

    private String name;
    private String type;
    private List<NodeSpec> nodes = List.of();
    private List<SpringSpec> springs = List.of();
    private GridSpec grid;
    private double massKg = 0.01;
    private double stiffnessNpm = 1000.0;
    private double dampingRatio = 0.0;
    private MassSpringSpec.Integrator integrator = MassSpringSpec.Integrator.NEWMARK;
    private int modes;
    private int substeps = 1;
    private double nodeRadiusM = 0.005;
    private double couplingStiffnessNpm = 1000.0;
    private double couplingDampingNspm = 0.2;
    private HoldSpec heldByTool;
    private GrabSpec grab;
    private StringSpec string;
    private boolean modesAboutEquilibrium;
    private boolean startAtEquilibrium;
    /** The mass-spring settings the file gave, in file order: a string takes none of them. */
    private final java.util.Set<String> massSpringSettings = new java.util.LinkedHashSet<>();

    public void setName(String value) {
        if (value == null || !value.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("name must start with a letter and contain only letters, digits, "
                + "'_' and '-' (it names CSV columns), got '" + value + "'");
        }
        this.name = value;
    }

    public void setType(String value) {
        if (!"mass-spring".equals(value) && !"string".equals(value)) {
            throw new IllegalArgumentException("type must be " + TYPES + ", got '" + value + "'");
        }
        this.type = value;
    }

    public void setNodes(List<NodeSpec> value) {
        this.nodes = value == null ? List.of() : List.copyOf(value);
    }

    public void setSprings(List<SpringSpec> value) {
        this.springs = value == null ? List.of() : List.copyOf(value);
    }

    public void setGrid(GridSpec value) {
        this.grid = value;
    }

    /** Mass of every node that does not give its own, kg. */
    public void setMassKg(double value) {
        massSpringSettings.add("massKg");
        this.massKg = Check.positive("massKg", value);
    }

    /** Stiffness of every spring that does not give its own, N/m. */
    public void setStiffnessNpm(double value) {
        massSpringSettings.add("stiffnessNpm");
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    /** h of source 004 (3.10), every mode: C_i = 2·h·ω_i·M_i. */
    public void setDampingRatio(double value) {
        massSpringSettings.add("dampingRatio");
        this.dampingRatio = Check.nonNegative("dampingRatio", value);
    }

    public void setIntegrator(String value) {
        massSpringSettings.add("integrator");
        String key = value == null ? "" : value.toUpperCase(Locale.ROOT).replace('-', '_');
        try {
            this.integrator = MassSpringSpec.Integrator.valueOf(key);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("integrator must be newmark, modal, modal-truncated or "
                + "symplectic-euler, got '" + value + "'");
        }
    }

    public void setModes(int value) {
        massSpringSettings.add("modes");
        if (value < 1) {
            throw new IllegalArgumentException("modes must be >= 1, got " + value);
        }
        this.modes = value;
    }

    public void setSubsteps(int value) {
        massSpringSettings.add("substeps");
        if (value < 1 || value > 1000) {
            throw new IllegalArgumentException("substeps must be 1..1000, got " + value);
        }
        this.substeps = value;
    }

    public void setNodeRadiusM(double value) {
        this.nodeRadiusM = Check.size("nodeRadiusM", value);
    }

    public void setCouplingStiffnessNpm(double value) {
        this.couplingStiffnessNpm = Check.nonNegative("couplingStiffnessNpm", value);
    }

    public void setCouplingDampingNspm(double value) {
        this.couplingDampingNspm = Check.nonNegative("couplingDampingNspm", value);
    }

    /** {@code string}: the fields of {@code type: string} (source 001). */
    public void setString(StringSpec value) {
        this.string = value;
    }

    public StringSpec string() {
        return string;
    }

    /** {@code grab}: the stylus grabs a node of this body while a button is held. */
    public void setGrab(GrabSpec value) {
        this.grab = value;
    }

    public GrabSpec grab() {
        return grab;
    }

    /** {@code heldByTool}: the tool holds one node from the start (a grasp). */
    public void setHeldByTool(HoldSpec value) {
        this.heldByTool = value;
    }

    public HoldSpec heldByTool() {
        return heldByTool;
    }

    /** The configuration the modes are taken about: {@code rest} (the positions given) or {@code equilibrium}. */
    public void setModesAbout(String value) {
        massSpringSettings.add("modesAbout");
        this.modesAboutEquilibrium = configuration("modesAbout", value);
    }

    /** Where the body starts: {@code rest} (the positions given, at rest) or its static {@code equilibrium}. */
    public void setStart(String value) {
        massSpringSettings.add("start");
        this.startAtEquilibrium = configuration("start", value);
    }

    private static boolean configuration(String field, String value) {
        if ("rest".equals(value)) {
            return false;
        }
        if ("equilibrium".equals(value)) {
            return true;
        }
        throw new IllegalArgumentException(field + " must be rest or equilibrium, got '" + value + "'");
    }

    /** The mass-spring settings given ({@code massKg}, {@code modes}, …), in file order. */
    public java.util.Set<String> massSpringSettings() {
        return java.util.Collections.unmodifiableSet(massSpringSettings);
    }

    public boolean modesAboutEquilibrium() {
        return modesAboutEquilibrium;
    }

    public boolean startAtEquilibrium() {
        return startAtEquilibrium;
    }

    public String name() {
        return name;
    }

    public String type() {
        return type;
    }

    public List<NodeSpec> nodes() {
        return nodes;
    }

    public List<SpringSpec> springs() {
        return springs;
    }

    public GridSpec grid() {
        return grid;
    }

    public MassSpringSpec.Integrator integrator() {
        return integrator;
    }

    public int modes() {
        return modes;
    }

    public int substeps() {
        return substeps;
    }

    public double nodeRadiusM() {
        return nodeRadiusM;
    }

    public double couplingStiffnessNpm() {
        return couplingStiffnessNpm;
    }

    public double couplingDampingNspm() {
        return couplingDampingNspm;
    }

    /**
     * The engine's description with the scene's gravity: the grid's nodes and springs first (row by row), then the
     * listed ones, whose indices count after the grid's.
     *
     * @throws IllegalArgumentException naming the first entry that is wrong
     */
    public MassSpringSpec toSpec(double[] gravityMps2) {
        List<double[]> positions = new ArrayList<>();
        List<Double> masses = new ArrayList<>();
        List<Boolean> pinned = new ArrayList<>();
        List<int[]> ends = new ArrayList<>();
        List<Double> stiffness = new ArrayList<>();
        List<Double> restLengths = new ArrayList<>();
        if (grid != null) {
            grid.build(massKg, stiffnessNpm, positions, masses, pinned, ends, stiffness, restLengths);
        }
        for (NodeSpec node : nodes) {
            positions.add(node.positionM());
            masses.add(Double.isNaN(node.massKg()) ? massKg : node.massKg());
            pinned.add(node.pinned());
        }
        int n = positions.size();
        for (int k = 0; k < springs.size(); k++) {
            SpringSpec s = springs.get(k);
            int a = s.nodes()[0];
            int b = s.nodes()[1];
            if (a < 0 || a >= n || b < 0 || b >= n || a == b) {
                throw new IllegalArgumentException("springs[" + k + "].nodes: two different nodes of 0.." + (n - 1)
                    + " needed, got [" + a + ", " + b + "]");
            }
            ends.add(new int[] {a, b});
            stiffness.add(Double.isNaN(s.stiffnessNpm()) ? stiffnessNpm : s.stiffnessNpm());
            restLengths.add(s.restLengthM());
        }
        if (n == 0) {
            throw new IllegalArgumentException("no nodes: give nodes or a grid");
        }
        double[] rest = new double[3 * n];
        double[] mass = new double[n];
        boolean[] pins = new boolean[n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(positions.get(i), 0, rest, 3 * i, 3);
            mass[i] = masses.get(i);
            pins[i] = pinned.get(i);
        }
        int[] springNodes = new int[2 * ends.size()];
        double[] k = new double[ends.size()];
        double[] l = new double[ends.size()];
        double[] distance = MassSpringSpec.restDistances(rest, flatten(ends));
        for (int s = 0; s < ends.size(); s++) {
            springNodes[2 * s] = ends.get(s)[0];
            springNodes[2 * s + 1] = ends.get(s)[1];
            k[s] = stiffness.get(s);
            l[s] = Double.isNaN(restLengths.get(s)) ? distance[s] : restLengths.get(s);
        }
        if (integrator == MassSpringSpec.Integrator.MODAL_TRUNCATED && modes == 0) {
            throw new IllegalArgumentException("modes: missing (modal-truncated keeps that many of the lowest modes)");
        }
        return new MassSpringSpec(mass, rest, springNodes, k, l, pins, gravityMps2.clone(), dampingRatio, integrator,
            modes, substeps);
    }

    private static int[] flatten(List<int[]> ends) {
        int[] out = new int[2 * ends.size()];
        for (int s = 0; s < ends.size(); s++) {
            out[2 * s] = ends.get(s)[0];
            out[2 * s + 1] = ends.get(s)[1];
        }
        return out;
    }

    /** The grid's cells as two triangles each (its surface, for drawing), node indices as {@link #toSpec} numbers them. */
    public int[] surfaceTriangles() {
        if (grid == null) {
            return new int[0];
        }
        return grid.triangles();
    }

    /**
     * {@code string}: source 001's string, the tangent-angle elastica with inertia, in the vertical plane through
     * {@code origin} along +x, its left end held there, its right end free and pushed along −x by {@code endForceN}.
     */
    public static final class StringSpec extends Located {
        /** Seconds of the string's own motion, alone, that must stay finite at load ({@link #requireFiniteStart}). */
        static final double TRIAL_S = 1.0;
        /** The trial string's bend, per coefficient of θ, rad: far below anything seen, enough to grow if unstable. */
        static final double TRIAL_BEND_RAD = 1e-9;
        private double lengthM = 0.3;
        private double densityKgpm = 0.05;
        private double bendingStiffnessNm2 = 0.001;
        private double endForceN;
        private String basis = "clamped-free";
        private int terms = 6;
        private int samples = 200;
        private int points = 21;
        private double[] originM = {0.0, 0.0, 0.0};
        private String projection = "galerkin";
        private String scheme = "centred";
        private String rightEnd = "free";
        private DriveSpec drive;
        private StartSpec start;

        public void setLengthM(double value) {
            this.lengthM = Check.positive("lengthM", value);
        }

        public void setDensityKgpm(double value) {
            this.densityKgpm = Check.positive("densityKgpm", value);
        }

        public void setBendingStiffnessNm2(double value) {
            this.bendingStiffnessNm2 = Check.positive("bendingStiffnessNm2", value);
        }

        public void setEndForceN(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("endForceN must be finite, got " + value);
            }
            this.endForceN = value;
        }

        public void setBasis(String value) {
            if (!"source".equals(value) && !"clamped-free".equals(value)) {
                throw new IllegalArgumentException("basis must be source or clamped-free, got '" + value + "'");
            }
            this.basis = value;
        }

        public void setTerms(int value) {
            if (value < 1 || value > 40) {
                throw new IllegalArgumentException("terms must be 1..40, got " + value);
            }
            this.terms = value;
        }

        public void setSamples(int value) {
            if (value < 4 || value > 10_000) {
                throw new IllegalArgumentException("samples must be 4..10000, got " + value);
            }
            this.samples = value;
        }

        public void setPoints(int value) {
            if (value < 2 || value > 1000) {
                throw new IllegalArgumentException("points must be 2..1000, got " + value);
            }
            this.points = value;
        }

        public void setOrigin(double[] value) {
            this.originM = Check.vector3("origin", value);
        }

        public void setProjection(String value) {
            if (!"galerkin".equals(value) && !"least-squares".equals(value)) {
                throw new IllegalArgumentException("projection must be galerkin or least-squares, got '" + value
                    + "'");
            }
            this.projection = value;
        }

        public void setScheme(String value) {
            if (!"centred".equals(value) && !"source".equals(value)) {
                throw new IllegalArgumentException("scheme must be centred or source, got '" + value + "'");
            }
            this.scheme = value;
        }

        /**
         * {@code free} (the default, pushed by {@code endForceN}), {@code on-axis} (held on the x axis, z(L) = 0) or
         * {@code driven} (along {@code drive.path}).
         */
        public void setRightEnd(String value) {
            if (!"free".equals(value) && !"on-axis".equals(value) && !"driven".equals(value)) {
                throw new IllegalArgumentException("rightEnd must be free, on-axis or driven, got '" + value + "'");
            }
            this.rightEnd = value;
        }

        /** {@code drive}: the path of a driven right end. */
        public void setDrive(DriveSpec value) {
            this.drive = value;
        }

        /** {@code start}: the shape to start from instead of straight and at rest. */
        public void setStart(StartSpec value) {
            this.start = value;
        }

        /**
         * The string, straight along +x and at rest unless {@code start} says otherwise, under the scene's gravity in
         * its plane (x and z; a y part is perpendicular to the plane and dropped), and the body the world sees.
         */
        public org.hapticsd.physics.deformable.StringBody build(String name, double nodeRadiusM, double[] gravityMps2,
                                                                double dtS) {
            org.hapticsd.physics.deformable.StringBody body = buildOnce(name, nodeRadiusM, gravityMps2, dtS, true);
            requireFiniteStart(buildOnce(name, nodeRadiusM, gravityMps2, dtS, false), dtS);
            return body;
        }

        private org.hapticsd.physics.deformable.StringBody buildOnce(String name, double nodeRadiusM,
                                                                     double[] gravityMps2, double dtS,
                                                                     boolean checkStep) {
            if (samples % (points - 1) != 0) {
                throw new IllegalArgumentException("string.samples (" + samples + ") must be a multiple of "
                    + "string.points − 1 (" + (points - 1) + ")");
            }
            org.hapticsd.physics.deformable.ElasticString model = new org.hapticsd.physics.deformable.ElasticString(
                lengthM, densityKgpm, bendingStiffnessNm2, endForceN,
                "source".equals(basis) ? org.hapticsd.physics.deformable.ElasticString.Basis.SOURCE
                    : org.hapticsd.physics.deformable.ElasticString.Basis.CLAMPED_FREE, terms, samples);
            model.setProjection("galerkin".equals(projection)
                ? org.hapticsd.physics.deformable.ElasticString.Projection.GALERKIN
                : org.hapticsd.physics.deformable.ElasticString.Projection.LEAST_SQUARES);
            model.setScheme("centred".equals(scheme) ? org.hapticsd.physics.deformable.ElasticString.Scheme.CENTRED
                : org.hapticsd.physics.deformable.ElasticString.Scheme.SOURCE);
            model.setEndOnAxis("on-axis".equals(rightEnd));
            if ("least-squares".equals(projection) && (gravityMps2[0] != 0 || gravityMps2[2] != 0)) {
                throw new IllegalArgumentException("string.projection: least-squares (the source's) has no place for "
                    + "applied forces, so the scene's gravity would be lost: use galerkin, or gravity [0, 0, 0]");
            }
            model.setGravity(gravityMps2[0], gravityMps2[2]);
            if ("driven".equals(rightEnd) != (drive != null)) {
                throw new IllegalArgumentException(drive == null
                    ? "string.drive: missing (rightEnd: driven needs a path)" : "string.drive: only with rightEnd: driven");
            }
            double[] straight = new double[model.basisSize()];
            if (!checkStep) {
                // The trial's string is bent by a nanoradian: exactly straight and at rest, nothing would excite a
                // step that amplifies (the source's scheme on the cantilever, lost at 0.073 s once the tool held it).
                java.util.Arrays.fill(straight, TRIAL_BEND_RAD);
            }
            model.setCoefficients(straight, straight);
            if (start != null) {
                start.applyTo(model, "source".equals(basis));
            }
            if (checkStep && "centred".equals(scheme)) {
                requireStableStep(model, terms, dtS);
            }
            org.hapticsd.physics.deformable.StringBody body = new org.hapticsd.physics.deformable.StringBody(name,
                model, originM, points, nodeRadiusM, densityKgpm, lengthM);
            if (drive != null) {
                body.driveEnd(drive.path());
            }
            return body;
        }

        /**
         * A copy of the string, left alone (nothing touching or holding it, bent by {@value #TRIAL_BEND_RAD} rad when
         * it would start straight) for its first {@value #TRIAL_S} s, must stay finite: a start, an end force or a
         * drive that no step can follow goes to NaN there (a 7.7 m move of the end in 1 ms after 26 steps, 10⁹ N on
         * the source's 100 m rope after 6, 10⁶ N after 152), and would in the loop too, where the world takes the
         * string out. The stability check above is linear, about the start at
         * rest; this one sees the start's speed and what the linearisation leaves out (a string buckling faster than
         * the step can follow, whose modes then stiffen with the fold). Costs up to a second of the string's steps
         * (0.1–0.3 s more at load for the source's example at 1 kHz, from a cold start).
         */
        private void requireFiniteStart(org.hapticsd.physics.deformable.StringBody trial, double dtS) {
            int steps = (int) Math.ceil(TRIAL_S / dtS);
            org.joml.Vector3d position = new org.joml.Vector3d();
            org.joml.Vector3d velocity = new org.joml.Vector3d();
            for (int step = 1; step <= steps; step++) {
                trial.step(dtS);
                for (int node = 0; node < trial.nodeCount(); node++) {
                    if (!trial.nodePosition(node, position).isFinite()
                            || !trial.nodeVelocity(node, velocity).isFinite()) {
                        throw new IllegalArgumentException(String.format(Locale.ROOT, "string: left alone, it is no "
                            + "longer finite (NaN or infinite) after %d step%s (%s s at %.0f Hz), so the loop would "
                            + "lose it in its first second; %s", step, step == 1 ? "" : "s",
                            Numbers.significant(step * dtS), 1.0 / dtS, trialHints()));
                    }
                }
            }
        }

        /** What the string is started with that a step can fail to follow, for {@link #requireFiniteStart}. */
        private String trialHints() {
            List<String> hints = new ArrayList<>();
            if (start != null && start.endAtM != null && start.endAtM.length == 2) {
                hints.add(String.format(Locale.ROOT, "its start moves the end at %s m/s (start.endAtM over "
                    + "start.intervalS)", Numbers.significant(
                        Math.abs(start.endAtM[1] - start.endAtM[0]) / start.intervalS)));
            }
            if (endForceN != 0.0) {
                hints.add("endForceN is " + Numbers.significant(endForceN) + " N");
            }
            if (drive != null) {
                hints.add("its end follows drive.path");
            }
            if ("source".equals(scheme)) {
                hints.add("scheme: source amplifies at any step (docs/deformable.md; centred does not)");
            }
            return hints.isEmpty() ? "try a higher rateHz"
                : String.join(", ", hints) + ": try gentler values or a higher rateHz";
        }
    }

    /**
     * The centred step is explicit: it diverges, within a few ticks, once the highest kept mode has ω·Δt ≥ 2 (more
     * terms, a stiffer or lighter or shorter string raise ω). Refused at load rather than left to reach NaN. The
     * source's scheme is unstable at any step by design (deformable.md) and is not checked.
     */
    private static void requireStableStep(org.hapticsd.physics.deformable.ElasticString model, int terms,
                                          double dtS) {
        double omegaRadps = model.highestModeRadps(dtS);
        if (!(omegaRadps * dtS < 2.0)) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "string.terms: with %d terms the "
                + "highest mode is %.0f rad/s, and the explicit step at %.0f Hz needs ω·Δt < 2 (below %.0f rad/s; "
                + "this one is %.2f): use fewer terms, a longer, heavier or softer string, or a higher rateHz",
                terms, omegaRadps, 1.0 / dtS, 2.0 / dtS, omegaRadps * dtS));
        }
    }

    /** {@code drive}: the driven right end's path, points {@code {t, position: [x, z]}} relative to the left end. */
    public static final class DriveSpec extends Located {
        private java.util.List<EndPointSpec> path = java.util.List.of();
        private boolean loop;

        public void setPath(java.util.List<EndPointSpec> value) {
            this.path = java.util.List.copyOf(value);
        }

        public void setLoop(boolean value) {
            this.loop = value;
        }

        org.hapticsd.physics.deformable.EndPath path() {
            double[] t = new double[path.size()];
            double[] x = new double[path.size()];
            double[] z = new double[path.size()];
            for (int i = 0; i < path.size(); i++) {
                EndPointSpec point = path.get(i);
                if (Double.isNaN(point.tS) || point.positionM == null) {
                    throw new IllegalArgumentException("string.drive.path[" + i + "]: needs t and position");
                }
                t[i] = point.tS;
                x[i] = point.positionM[0];
                z[i] = point.positionM[1];
            }
            try {
                return new org.hapticsd.physics.deformable.EndPath(t, x, z, loop);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("string.drive.path: " + e.getMessage(), e);
            }
        }
    }

    /** One point of a driven end's path: where the end is at time t, [x, z] m from the left end. */
    public static final class EndPointSpec extends Located {
        private double tS = Double.NaN;
        private double[] positionM;

        public void setT(double value) {
            this.tS = Check.nonNegative("t", value);
        }

        public void setPosition(double[] value) {
            if (value == null || value.length != 2 || !Double.isFinite(value[0]) || !Double.isFinite(value[1])) {
                throw new IllegalArgumentException("position must be [x, z] in m, finite");
            }
            this.positionM = value.clone();
        }
    }

    /**
     * {@code start}: source 001's starting shapes, circular arcs with the right end on the x axis at {@code endAtM}
     * (one value: at rest there; two: the shapes a⁰ and a¹, {@code intervalS} apart, so the string starts at the
     * first moving towards the second). The source basis only.
     */
    public static final class StartSpec extends Located {
        private double[] endAtM;
        private double intervalS = Double.NaN;

        public void setEndAtM(double[] value) {
            if (value == null || value.length < 1 || value.length > 2) {
                throw new IllegalArgumentException("endAtM must be [x] or [x0, x1] in m");
            }
            this.endAtM = value.clone();
        }

        public void setIntervalS(double value) {
            this.intervalS = Check.positive("intervalS", value);
        }

        void applyTo(org.hapticsd.physics.deformable.ElasticString model, boolean sourceBasis) {
            if (!sourceBasis) {
                throw new IllegalArgumentException(
                    "string.start: needs basis: source (its arcs need the terms 1 and s)");
            }
            if (endAtM == null) {
                throw new IllegalArgumentException("string.start.endAtM: missing");
            }
            if (endAtM.length == 2 && Double.isNaN(intervalS)) {
                throw new IllegalArgumentException("string.start.intervalS: missing (the time between the two "
                    + "shapes; the source's is one step, which reads as a 7.7 km/s throw in SI: docs/deformable.md)");
            }
            if (endAtM.length == 1 && !Double.isNaN(intervalS)) {
                throw new IllegalArgumentException("string.start.intervalS: only with two shapes in endAtM");
            }
            double[] first;
            double[] second;
            try {
                first = model.arcWithEndAt(endAtM[0]);
                second = endAtM.length == 2 ? model.arcWithEndAt(endAtM[1]) : first;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("string.start.endAtM: " + e.getMessage(), e);
            }
            double[] rate = new double[first.length];
            for (int i = 0; i < rate.length; i++) {
                rate[i] = endAtM.length == 2 ? (second[i] - first[i]) / intervalS : 0.0;
            }
            model.setMotion(first, rate);
        }
    }

    /** {@code heldByTool}: which node, and the grasp's spring and damper between it and the tool's centre. */
    public static final class HoldSpec extends Located {
        private int node = -1;
        private double stiffnessNpm = 200.0;
        private double dampingNspm = 0.5;

        public void setNode(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("node must be >= 0, got " + value);
            }
            this.node = value;
        }

        public void setStiffnessNpm(double value) {
            this.stiffnessNpm = Check.positive("stiffnessNpm", value);
        }

        public void setDampingNspm(double value) {
            this.dampingNspm = Check.nonNegative("dampingNspm", value);
        }

        public int node() {
            return node;
        }

        public double stiffnessNpm() {
            return stiffnessNpm;
        }

        public double dampingNspm() {
            return dampingNspm;
        }
    }

    /** One node of {@code nodes[]}. */
    public static final class NodeSpec extends Located {
        private double[] positionM = {0.0, 0.0, 0.0};
        private double massKg = Double.NaN;
        private boolean pinned;

        public void setPosition(double[] value) {
            this.positionM = Check.vector3("position", value);
        }

        public void setMassKg(double value) {
            this.massKg = Check.positive("massKg", value);
        }

        public void setPinned(boolean value) {
            this.pinned = value;
        }

        double[] positionM() {
            return positionM.clone();
        }

        double massKg() {
            return massKg;
        }

        boolean pinned() {
            return pinned;
        }
    }

    /** One spring of {@code springs[]}: two node indices; stiffness and rest length default to the body's and the distance. */
    public static final class SpringSpec extends Located {
        private int[] nodes = {-1, -1};
        private double stiffnessNpm = Double.NaN;
        private double restLengthM = Double.NaN;

        public void setNodes(int[] value) {
            if (value == null || value.length != 2) {
                throw new IllegalArgumentException("nodes must be two node indices [i, j]");
            }
            this.nodes = value.clone();
        }

        public void setStiffnessNpm(double value) {
            this.stiffnessNpm = Check.positive("stiffnessNpm", value);
        }

        public void setRestLengthM(double value) {
            // Bounded like a vector's components: a tester's 1e300 loaded, and the nodes went NaN in a few steps.
            this.restLengthM = Check.nonNegative("restLengthM", value);
            if (value > Check.MAX_VECTOR_COMPONENT) {
                throw new IllegalArgumentException("restLengthM must be <= 1e6, got " + value);
            }
        }

        int[] nodes() {
            return nodes;
        }

        double stiffnessNpm() {
            return stiffnessNpm;
        }

        double restLengthM() {
            return restLengthM;
        }
    }

    /**
     * {@code grid}: a cloth of {@code rows × columns} nodes {@code spacingM} apart from {@code origin}, row r and
     * column c at {@code origin + r·spacing·rowDirection + c·spacing·columnDirection}; springs along rows and columns
     * (structural), across each cell's diagonals ({@code shear}), and two nodes apart ({@code bend}); the nodes at
     * {@code pinned} [row, column] pairs held.
     */
    public static final class GridSpec extends Located {
        private int rows = 2;
        private int columns = 2;
        private double spacingM = 0.02;
        private double[] originM = {0.0, 0.0, 0.0};
        private double[] rowDirection = {0.0, -1.0, 0.0};
        private double[] columnDirection = {1.0, 0.0, 0.0};
        private boolean shear = true;
        private boolean bend;
        private List<int[]> pinned = List.of();

        public void setRows(int value) {
            if (value < 1 || value > 200) {
                throw new IllegalArgumentException("rows must be 1..200, got " + value);
            }
            this.rows = value;
        }

        public void setColumns(int value) {
            if (value < 1 || value > 200) {
                throw new IllegalArgumentException("columns must be 1..200, got " + value);
            }
            this.columns = value;
        }

        public void setSpacingM(double value) {
            this.spacingM = Check.positive("spacingM", value);
        }

        public void setOrigin(double[] value) {
            this.originM = Check.vector3("origin", value);
        }

        public void setRowDirection(double[] value) {
            this.rowDirection = unit("rowDirection", value);
        }

        public void setColumnDirection(double[] value) {
            this.columnDirection = unit("columnDirection", value);
        }

        public void setShear(boolean value) {
            this.shear = value;
        }

        public void setBend(boolean value) {
            this.bend = value;
        }

        public void setPinned(List<int[]> value) {
            List<int[]> out = new ArrayList<>();
            for (int[] p : value == null ? List.<int[]>of() : value) {
                if (p == null || p.length != 2) {
                    throw new IllegalArgumentException("pinned must list [row, column] pairs");
                }
                out.add(p.clone());
            }
            this.pinned = List.copyOf(out);
        }

        int[] triangles() {
            int cells = Math.max(0, rows - 1) * Math.max(0, columns - 1);
            int[] out = new int[6 * cells];
            int k = 0;
            for (int r = 0; r + 1 < rows; r++) {
                for (int c = 0; c + 1 < columns; c++) {
                    int i = r * columns + c;
                    // Each cell split on its diagonal i → i + columns + 1, counter-clockwise seen from the side
                    // columnDirection × (−rowDirection) points to (+z with the defaults).
                    out[k++] = i;
                    out[k++] = i + columns;
                    out[k++] = i + columns + 1;
                    out[k++] = i;
                    out[k++] = i + columns + 1;
                    out[k++] = i + 1;
                }
            }
            return out;
        }

        private static double[] unit(String field, double[] value) {
            double[] v = Check.vector3(field, value);
            double length = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            if (!(length > 0.0)) {
                throw new IllegalArgumentException(field + " must not be zero");
            }
            return new double[] {v[0] / length, v[1] / length, v[2] / length};
        }

        void build(double massKg, double stiffnessNpm, List<double[]> positions, List<Double> masses,
                   List<Boolean> pins, List<int[]> ends, List<Double> stiffness, List<Double> restLengths) {
            int first = positions.size();
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    double[] p = new double[3];
                    for (int k = 0; k < 3; k++) {
                        p[k] = originM[k] + spacingM * (r * rowDirection[k] + c * columnDirection[k]);
                    }
                    positions.add(p);
                    masses.add(massKg);
                    pins.add(false);
                }
            }
            for (int[] p : pinned) {
                if (p[0] < 0 || p[0] >= rows || p[1] < 0 || p[1] >= columns) {
                    throw new IllegalArgumentException("grid.pinned: [" + p[0] + ", " + p[1] + "] is outside the "
                        + rows + " × " + columns + " grid");
                }
                pins.set(first + p[0] * columns + p[1], true);
            }
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < columns; c++) {
                    int i = first + r * columns + c;
                    link(ends, stiffness, restLengths, stiffnessNpm, c + 1 < columns, i, i + 1);
                    link(ends, stiffness, restLengths, stiffnessNpm, r + 1 < rows, i, i + columns);
                    link(ends, stiffness, restLengths, stiffnessNpm, shear && r + 1 < rows && c + 1 < columns, i,
                        i + columns + 1);
                    link(ends, stiffness, restLengths, stiffnessNpm, shear && r + 1 < rows && c > 0, i,
                        i + columns - 1);
                    link(ends, stiffness, restLengths, stiffnessNpm, bend && c + 2 < columns, i, i + 2);
                    link(ends, stiffness, restLengths, stiffnessNpm, bend && r + 2 < rows, i, i + 2 * columns);
                }
            }
        }

        private static void link(List<int[]> ends, List<Double> stiffness, List<Double> restLengths, double k,
                                 boolean present, int a, int b) {
            if (present) {
                ends.add(new int[] {a, b});
                stiffness.add(k);
                restLengths.add(Double.NaN);
            }
        }
    }
}
