package org.hapticsd.server.scene;

import java.io.IOException;
import java.lang.ref.SoftReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.SimulatedDeviceConfig;
import org.hapticsd.device.sim.WaypointHandTarget;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ContactBudget;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.ContactNeed;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.Material;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.physics.deformable.MassSpringBody;
import org.hapticsd.physics.deformable.MassSpringSpec;
import org.hapticsd.physics.deformable.MassSpringStatics;
import org.hapticsd.physics.deformable.ModalBasis;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.dynamics.SolidInertia;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformModel;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.hapticsd.physics.io.MeshLoader;
import org.hapticsd.physics.mass.MassProperties;
import org.hapticsd.physics.mass.MassPropertiesCalculator;
import org.hapticsd.server.render.BodyViscosity;
import org.hapticsd.server.render.ContactVibration;
import org.hapticsd.server.render.DirectContactRenderer;
import org.hapticsd.server.render.DeviceMapping;
import org.hapticsd.server.render.ForceField;
import org.hapticsd.server.render.ForceRenderer;
import org.hapticsd.server.render.GodObjectRenderer;
import org.hapticsd.server.render.GratingTexture;
import org.hapticsd.server.render.Guide;
import org.hapticsd.server.render.HapticEffect;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.ImpactTransients;
import org.hapticsd.server.render.PassivityController;
import org.hapticsd.server.render.ProxyRenderer;
import org.hapticsd.server.render.Numbers;
import org.hapticsd.server.render.StickSlip;
import org.hapticsd.server.render.SurfaceMagnet;
import org.hapticsd.server.render.ToolGrasps;
import org.hapticsd.server.render.VirtualCoupling;
import org.hapticsd.server.render.VirtualCouplingRenderer;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/** Turns a checked {@link SceneSpec} into the runtime objects of a {@link BuiltScene}. */
public final class SceneBuilder {
    private SceneBuilder() {
    }

    /** Builds the scene; a combination of values the runtime rejects is reported as a {@link SceneException}. */
    public static BuiltScene build(SceneSpec spec) throws SceneException {
        try {
            return buildChecked(spec);
        } catch (IllegalArgumentException e) {
            throw new SceneException(spec.source() + ": scene '" + spec.name() + "': " + e.getMessage(), e);
        }
    }

    private static BuiltScene buildChecked(SceneSpec spec) throws SceneException {
        Map<Integer, Solved> solved = new HashMap<>();
        BuiltScene scene = buildChecked(spec, solved, Map.of());
        if (!solved.isEmpty()) {
            requireFiniteTrial(spec, solved);
        }
        return scene;
    }

    /**
     * A mass–spring body's equilibrium and modal basis, the slow part of building one (seconds for the cloth),
     * computed once per load and shared by the copy {@link #requireFiniteTrial} steps (neither is changed by a body).
     */
    private record Solved(double[] equilibrium, ModalBasis basis) {
    }

    /**
     * What a {@link Solved} is computed from: every field of the body that its equilibrium and modes depend on (all
     * but the substeps), compared by value, and where the modes and the start are taken.
     */
    private record SolvedKey(MassSpringSpec spec, boolean modesAboutEquilibrium, boolean startAtEquilibrium) {
        @Override
        public boolean equals(Object other) {
            return other instanceof SolvedKey k && modesAboutEquilibrium == k.modesAboutEquilibrium
                && startAtEquilibrium == k.startAtEquilibrium && Arrays.equals(spec.massKg(), k.spec.massKg())
                && Arrays.equals(spec.restPositionM(), k.spec.restPositionM())
                && Arrays.equals(spec.springNodes(), k.spec.springNodes())
                && Arrays.equals(spec.stiffnessNpm(), k.spec.stiffnessNpm())
                && Arrays.equals(spec.restLengthM(), k.spec.restLengthM())
                && Arrays.equals(spec.pinned(), k.spec.pinned())
                && Arrays.equals(spec.gravityMps2(), k.spec.gravityMps2())
                && Double.compare(spec.dampingRatio(), k.spec.dampingRatio()) == 0
                && spec.integrator() == k.spec.integrator() && spec.modes() == k.spec.modes();
        }

        @Override
        public int hashCode() {
            return Objects.hash(modesAboutEquilibrium, startAtEquilibrium, Arrays.hashCode(spec.massKg()),
                Arrays.hashCode(spec.restPositionM()), Arrays.hashCode(spec.springNodes()),
                Arrays.hashCode(spec.stiffnessNpm()), Arrays.hashCode(spec.restLengthM()),
                Arrays.hashCode(spec.pinned()), Arrays.hashCode(spec.gravityMps2()), spec.dampingRatio(),
                spec.integrator(), spec.modes());
        }
    }

    /**
     * The last bodies solved in this process, by value: the same file built again (run's throwaway copy for the
     * warm-up, a stream's RESET_SCENE, a LOAD_SCENE back to it) takes its equilibrium and modes from here instead of
     * seconds of dense linear algebra (4–8 s for the cloth on the machine of docs/performance.md). Softly held, so a
     * heap that needs the room (a 24 × 24 cloth's basis is 24 MB) takes it back; at most two.
     */
    private static final RecentlySolved RECENTLY_SOLVED = new RecentlySolved(2);

    /** A small cache of softly held {@link Solved}, least recently used out first; any thread. */
    private static final class RecentlySolved {
        private final int capacity;
        private final LinkedHashMap<SolvedKey, SoftReference<Solved>> entries = new LinkedHashMap<>(4, 0.75f, true);

        RecentlySolved(int capacity) {
            this.capacity = capacity;
        }

        synchronized Solved get(SolvedKey key) {
            SoftReference<Solved> held = entries.get(key);
            return held == null ? null : held.get();
        }

        synchronized void put(SolvedKey key, Solved value) {
            entries.put(key, new SoftReference<>(value));
            while (entries.size() > capacity) {
                entries.remove(entries.keySet().iterator().next());
            }
        }
    }

    /**
     * What a trial lost: the step (from 1) after which a body was no longer finite, the step's words, and, per
     * deformable body the tool holds ({@code heldByTool}), how far from its node the tool started.
     */
    private record Lost(int step, String message, Map<Integer, String> holds) {
    }

    /** How long the load runs a copy of a scene with a mass–spring body ({@link #requireFiniteTrial}), s. */
    static final double TRIAL_S = 1.0;
    /**
     * The most substeps the trial tries, doubling from the body's own (or four times the body's own, if more), to name
     * some that keep it finite.
     */
    static final int MAX_TRIAL_SUBSTEPS = 16;

    /**
     * Runs a copy of the scene for its first {@link #TRIAL_S} (its rigid bodies, its deformable ones, the tool where
     * the simulated stylus starts, nothing on the device), and refuses it, in one line, if a body's state stops being
     * finite there; for a body the tool holds, the line says how far from the held node the stylus starts. The
     * load's check of a mass–spring body's step is linear, about its modes' shape (its highest kept mode), and a
     * body deformed further, by a contact pressing into it or by where it starts, stiffens beyond it: the cloth of
     * {@code scenes/cloth.yaml} with springs of 10⁵ N/m passed the load, went non-finite 0.02 s into every run where
     * the post presses into it, and {@code run} then held the device at zero force for good, with no word on why.
     * The line says which substeps, doubled from the body's own up to {@link #MAX_TRIAL_SUBSTEPS}, keep it finite.
     * The copy is as deterministic as the run, so what it loses a run without a hand would lose; what a hand on the
     * device does later, a load cannot see (the run then names the body, as for a string).
     */
    private static void requireFiniteTrial(SceneSpec spec, Map<Integer, Solved> solved) throws SceneException {
        int steps = (int) Math.ceil(TRIAL_S * spec.rateHz());
        Lost lost = trial(spec, solved, Map.of(), steps);
        if (lost == null) {
            return;
        }
        String when = String.format(java.util.Locale.ROOT, "after %d steps (%.3f s at %d Hz)", lost.step(),
            lost.step() / (double) spec.rateHz(), spec.rateHz());
        for (int i = 0; i < spec.deformables().size(); i++) {
            DeformableSpec d = spec.deformables().get(i);
            if (!solved.containsKey(i) || !lost.message().contains("deformable body '" + d.name() + "'")) {
                continue;
            }
            int holds = -1;
            int most = Math.max(MAX_TRIAL_SUBSTEPS, 4 * d.substeps());
            for (int substeps = 2 * d.substeps(); substeps <= most && holds < 0; substeps *= 2) {
                Lost again = trial(spec, solved, Map.of(i, substeps), steps);
                if (again == null || !again.message().contains("deformable body '" + d.name() + "'")) {
                    holds = substeps;
                }
            }
            throw new SceneException(spec.source() + ":" + d.line() + ":" + d.column() + ": deformables[" + i + "] ("
                + d.name() + "): run with the scene's bodies for " + TRIAL_S + " s, no hand on the device, it is no "
                + "longer finite " + when + ": its step is checked at load for small motions about its modes' shape "
                + "only, and deformed further (a contact pressing into it, where it starts) its springs stiffen beyond "
                + "it" + (lost.holds().containsKey(i) ? "; " + lost.holds().get(i) : "") + "; " + (holds > 0
                    ? "substeps: " + holds + " keeps it finite (each substep costs a step of the body), or use softer "
                        + "springs or fewer modes"
                    : "no substeps up to " + most + " keep it finite: use softer springs, fewer modes or a higher "
                        + "rateHz"));
        }
        throw new SceneException(spec.source() + ": scene '" + spec.name() + "': run for " + TRIAL_S + " s with no "
            + "hand on the device, it loses a body " + when + ": " + lost.message());
    }

    /**
     * Steps a copy of the scene built with {@code substeps} for the named deformables, the tool still where the
     * simulated stylus starts (a tool is built at the scene's origin until a device moves it: for the cloth, on its
     * pinned corner); what it lost, or null.
     */
    private static Lost trial(SceneSpec spec, Map<Integer, Solved> solved, Map<Integer, Integer> substeps, int steps)
            throws SceneException {
        HapticScene haptic = buildChecked(spec, solved, substeps).haptic();
        PhysicsWorld world = haptic.world();
        double[] p0 = spec.device().initialPositionM();
        Vector3d start = haptic.mapping().devicePointToScene(new Vector3d(p0[0], p0[1], p0[2]), new Vector3d());
        if (haptic.coupling() == null) {
            // A coupled proxy is built there already.
            world.setToolState(haptic.toolBody(), start, new Vector3d());
        }
        Map<Integer, String> holds = new HashMap<>();
        for (int i = 0; i < spec.deformables().size(); i++) {
            DeformableSpec.HoldSpec hold = spec.deformables().get(i).heldByTool();
            if (hold != null) {
                double distanceM = world.deformable(i).nodePosition(hold.node(), new Vector3d()).distance(start);
                holds.put(i, String.format(java.util.Locale.ROOT, "the tool holds node %d from %.3g m where the "
                    + "stylus starts (device.initialPosition), a pull of %.3g N: start it nearer", hold.node(),
                    distanceM, distanceM * hold.stiffnessNpm()));
            }
        }
        double dtS = 1.0 / spec.rateHz();
        for (int step = 1; step <= steps; step++) {
            try {
                world.step(dtS);
            } catch (org.hapticsd.physics.BodyStateLostException e) {
                return new Lost(step, e.getMessage(), holds);
            }
        }
        return null;
    }

    /**
     * Builds the scene; mass–spring bodies take their equilibrium and basis from {@code solved}, or compute and add
     * them there, and the deformables named in {@code substeps} take that many substeps.
     */
    private static BuiltScene buildChecked(SceneSpec spec, Map<Integer, Solved> solved,
                                           Map<Integer, Integer> substeps) throws SceneException {
        ContactSpec contact = spec.contact();
        // The heap check first, from the file's counts: after adding 30,000 bodies to a 64 MB heap, the same
        // refusal came only after minutes of garbage collection (a tester).
        int staticBodies = 0;
        for (BodySpec body : spec.bodies()) {
            if (body.motion() == BodySpec.Motion.STATIC) {
                staticBodies++;
            }
        }
        requireBudgetFitsHeap(spec, contact.budget(spec.bodies().size() + 1, staticBodies, 1));
        PhysicsWorld world = new PhysicsWorld(contact.toSettings());
        world.setSleepSettings(contact.sleepSettings());
        double[] g = spec.gravityMps2();
        world.setGravity(new Vector3d(g[0], g[1], g[2]));
        world.setSceneContactMode(contact.mode());
        ImpulseWaveformModel impulse = (ImpulseWaveformModel) world.contactModel(ContactMode.IMPULSE);
        impulse.setSettings(contact.impulse().toSettings());

        Map<String, Integer> bodyIndex = new HashMap<>();
        Map<String, Integer> groupIds = new HashMap<>();
        List<String> names = new ArrayList<>();
        int[] indices = new int[spec.bodies().size()];
        for (int i = 0; i < indices.length; i++) {
            BodySpec body = spec.bodies().get(i);
            try {
                indices[i] = addBody(world, spec, body);
            } catch (IllegalArgumentException e) {
                throw new SceneException(spec.source() + ":" + body.line() + ":" + body.column() + ": bodies[" + i
                    + "] (" + body.name() + "): " + e.getMessage(), e);
            }
            if (body.group() != null) {
                int group = groupIds.computeIfAbsent(body.group(), name -> groupIds.size() + 1);
                world.setBodyGroup(indices[i], group);
            }
            bodyIndex.put(body.name(), indices[i]);
            names.add(body.name());
        }
        MappingSpec m = spec.mapping();
        double[] r = m.rotation();
        DeviceMapping mapping = new DeviceMapping(vector(m.originM()), new Quaterniond(r[1], r[2], r[3], r[0]),
            m.scale());
        boolean coupled = spec.tool().rendering() == ToolSpec.Rendering.COUPLING;
        int tool = coupled ? addCoupledProxy(spec, world, mapping) : world.addTool(spec.tool().name(),
            spec.tool().radiusM());
        bodyIndex.put(spec.tool().name(), tool);
        // The tool meets dynamic bodies with the penalty spring unless an entry below says otherwise: an LCP tool is
        // infinitely stiff, so a body it squeezes against the floor buzzes between 0 and the safety limit
        // (docs/scenes.md, "contactModes"). First, so that every entry of the file overrides it. A coupled proxy
        // is a mass on a spring, so it keeps the scene's mode, LCP unless the file says otherwise.
        if (contact.mode() != ContactMode.NONE && !coupled) {
            world.setBodyContactMode(tool, ContactMode.PENALTY);
        }
        for (ContactModeSpec mode : spec.contactModes()) {
            if (mode.pair() != null) {
                int a = bodyIndex.get(mode.pair().get(0));
                int b = bodyIndex.get(mode.pair().get(1));
                world.setPairContactMode(a, b, mode.mode());
                if (!Double.isNaN(mode.correlationRatio())) {
                    impulse.setCorrelationRatio(a, b, mode.correlationRatio());
                }
            } else if (mode.body() != null) {
                world.setBodyContactMode(bodyIndex.get(mode.body()), mode.mode());
            } else {
                world.setGroupContactMode(groupIds.get(mode.group()), mode.mode());
            }
        }
        requireStablePenaltyContacts(spec, world, indices);
        List<String> warnings = penaltyMarginWarnings(spec, world, indices);
        ProxyRenderer proxy = spec.tool().rendering() == ToolSpec.Rendering.PROXY ? proxy(spec, world, tool) : null;
        double proxyKg = coupled ? world.bodyMassKg(tool) : Double.POSITIVE_INFINITY;
        ToolGrasps.Rigid[] rigidGrabs = rigidGrabs(spec, world, indices, proxyKg);
        VirtualCoupling coupling = coupled ? coupling(spec, world, tool, rigidGrabs) : null;
        ToolGrasps grasps = addDeformables(spec, world, tool, solved, substeps, rigidGrabs);
        applyContactBudget(spec, world);

        DeviceSpec d = spec.device();
        DeviceInfo info = new DeviceInfo("simulated stylus", 3, Workspace.cube(d.workspaceHalfSizeM()),
            d.maxForceN(), d.maxContinuousForceN(), d.maxStiffnessNpm(), d.dampingNspm());
        double[] p0 = d.initialPositionM();
        SimulatedDeviceConfig device = SimulatedDeviceConfig.defaults()
            .withInfo(info)
            .withMassKg(d.massKg())
            .withDampingNspm(d.dampingNspm())
            .withHandStiffnessNpm(d.hand().stiffnessNpm())
            .withHandDampingNspm(d.hand().dampingNspm())
            .withInitialPositionM(p0[0], p0[1], p0[2]);

        ImpactTransients transients = transients(spec, world, indices, impulse);
        // The broadphase's tree and the contact storage now, on the loading thread: not in the loop's first tick.
        world.prime();
        PassivityController passivity = spec.tool().passivityControl()
            ? new PassivityController(spec.device().effectiveMassKg()) : null;
        ForceRenderer renderer = proxy != null ? new GodObjectRenderer(proxy)
            : coupling != null ? new VirtualCouplingRenderer(coupling) : new DirectContactRenderer();
        HapticScene haptic = new HapticScene(world, tool, mapping, renderer, effects(spec, world, indices),
            passivity, transients, grasps);
        return new BuiltScene(spec.name(), haptic, List.copyOf(names),
            indices, spec.safety().toConfig(), spec.rateHz(), device, handTargets(d.hand()), List.copyOf(warnings),
            meshFiles(spec));
    }

    /** The mesh files the scene's bodies read, resolved against the scene file's folder, in body order. */
    private static List<Path> meshFiles(SceneSpec spec) {
        List<Path> files = new ArrayList<>();
        for (BodySpec body : spec.bodies()) {
            if (body.shape() instanceof ShapeSpec.Mesh mesh) {
                files.add(spec.baseDirectory().resolve(mesh.file()));
            }
        }
        return List.copyOf(files);
    }

    /**
     * The scene's effects in the order the loop adds them: the force field, the guide, the magnets, the viscous
     * bodies, the stick-slip surfaces and the textures (passive), then the vibration (active).
     */
    private static HapticEffect[] effects(SceneSpec spec, PhysicsWorld world, int[] indices) throws SceneException {
        ForceField field = forceField(spec);
        Guide guide = guide(spec);
        ContactVibration vibration = vibration(spec, world, indices);
        SurfaceMagnet magnet = magnet(spec, indices);
        BodyViscosity viscosity = viscosity(spec, indices);
        StickSlip stickSlip = stickSlip(spec, world, indices);
        GratingTexture texture = texture(spec, world, indices);
        List<HapticEffect> effects = new ArrayList<>();
        for (HapticEffect effect : new HapticEffect[] {field, guide, magnet, viscosity, stickSlip, texture,
                vibration}) {
            if (effect != null) {
                effects.add(effect);
            }
        }
        return effects.toArray(new HapticEffect[0]);
    }

    /**
     * The proxy of a tool rendered by coupling: a dynamic sphere of the tool's radius and the coupling's mass, its
     * rotation locked (so it slides, and friction is felt, where a free sphere would roll) and its step held to its
     * radius (so it cannot pass through a body), where the simulated stylus starts.
     */
    private static int addCoupledProxy(SceneSpec spec, PhysicsWorld world, DeviceMapping mapping) {
        CouplingSpec c = spec.tool().couplingOrDefaults();
        double radiusM = spec.tool().radiusM();
        double[] p0 = spec.device().initialPositionM();
        Vector3d start = mapping.devicePointToScene(new Vector3d(p0[0], p0[1], p0[2]), new Vector3d());
        int proxy = world.addDynamicBody(spec.tool().name(), new SphereShape(radiusM), start, new Quaterniond(),
            c.massKg(), SolidInertia.sphere(c.massKg(), radiusM, new Matrix3d()), Material.DEFAULT);
        world.lockRotation(proxy);
        // No faster than its radius a step, so that a jump in the device's position cannot throw it through a body.
        world.setMaxStepDistance(proxy, radiusM);
        return proxy;
    }

    /**
     * The virtual coupling of a tool rendered by coupling, once the proxy's load is known: its explicit step must
     * stay stable under every spring that can pull on it at once, the coupling's, the penalty contact's when it meets
     * some body in PENALTY, and the stiffest grab's (one body is held at a time). Refused in one line otherwise.
     */
    private static VirtualCoupling coupling(SceneSpec spec, PhysicsWorld world, int tool, ToolGrasps.Rigid[] grabs)
            throws SceneException {
        CouplingSpec c = spec.tool().couplingOrDefaults();
        double k = c.stiffnessNpm();
        double b = c.dampingNspm();
        StringBuilder springs = new StringBuilder("the coupling's " + Numbers.significant(k) + " N/m and "
            + Numbers.significant(b) + " N·s/m");
        for (int body = 0; body < world.bodyCount(); body++) {
            if (body != tool && world.contactMode(tool, body) == ContactMode.PENALTY) {
                PenaltyContactSettings spring = world.contactSettings().penalty();
                k += spring.stiffnessNpm();
                b += spring.dampingNspm();
                springs.append(", the penalty contact's (with '").append(world.bodyName(body)).append("') ")
                    .append(Numbers.significant(spring.stiffnessNpm())).append(" N/m and ")
                    .append(Numbers.significant(spring.dampingNspm())).append(" N·s/m");
                break;
            }
        }
        ToolGrasps.Rigid stiffest = null;
        for (ToolGrasps.Rigid grab : grabs) {
            if (stiffest == null || grab.stiffnessNpm() > stiffest.stiffnessNpm()) {
                stiffest = grab;
            }
        }
        double grabDampingNspm = 0.0;
        for (ToolGrasps.Rigid grab : grabs) {
            grabDampingNspm = Math.max(grabDampingNspm, grab.dampingNspm());
        }
        if (stiffest != null) {
            k += stiffest.stiffnessNpm();
            b += grabDampingNspm;
            springs.append(", a grab's ").append(Numbers.significant(stiffest.stiffnessNpm())).append(" N/m and ")
                .append(Numbers.significant(grabDampingNspm)).append(" N·s/m");
        }
        double dtS = 1.0 / spec.rateHz();
        double needKg = (k * dtS * dtS + 2.0 * b * dtS) / 4.0;
        if (!(c.massKg() > needKg)) {
            // The coupling's own line when the file has one; the defaults have none.
            CouplingSpec written = spec.tool().coupling();
            String at = spec.source() + (written != null ? ":" + written.line() + ":" + written.column() : "")
                + ": tool.coupling: ";
            throw new SceneException(at + "the proxy of " + Numbers.significant(c.massKg()) + " kg is unstable at "
                + spec.rateHz() + " Hz under " + springs + " together: k·Δt² + 2·b·Δt < 4·m needs m above "
                + Numbers.significant(needKg) + " kg; raise tool.coupling.massKg or soften those springs "
                + "(docs/scenes.md, \"Virtual coupling\")");
        }
        try {
            return new VirtualCoupling(tool, c.stiffnessNpm(), c.dampingNspm(), c.massKg());
        } catch (IllegalArgumentException e) {
            throw new SceneException(spec.source() + ": tool.coupling: " + e.getMessage(), e);
        }
    }

    /** The scene's virtual fixture ({@code guide}), or null. */
    private static Guide guide(SceneSpec spec) throws SceneException {
        GuideSpec g = spec.guide();
        if (g == null) {
            return null;
        }
        String at = spec.source() + ":" + g.line() + ":" + g.column() + ": guide";
        if (g.type() == null) {
            throw new SceneException(at + ".type: missing (point, line or plane)");
        }
        Guide.Kind kind = Guide.Kind.valueOf(g.type().toUpperCase(java.util.Locale.ROOT));
        double[] direction = g.direction();
        double[] normal = g.normal();
        if (kind == Guide.Kind.LINE && (direction == null || normal != null)) {
            throw new SceneException(at + ": a line takes a direction (and no normal)");
        }
        if (kind == Guide.Kind.PLANE && (normal == null || direction != null)) {
            throw new SceneException(at + ": a plane takes a normal (and no direction)");
        }
        if (kind == Guide.Kind.POINT && (direction != null || normal != null)) {
            throw new SceneException(at + ": a point takes neither a direction nor a normal");
        }
        double[] axis = direction != null ? direction : normal != null ? normal : new double[3];
        try {
            return new Guide(kind, vector(g.pointM()), vector(axis), g.stiffnessNpm(), g.dampingNspm());
        } catch (IllegalArgumentException e) {
            throw new SceneException(at + ": " + e.getMessage(), e);
        }
    }

    /** The scene's force field on the hand ({@code forceField}), or null. */
    private static ForceField forceField(SceneSpec spec) throws SceneException {
        ForceFieldSpec f = spec.forceField();
        if (f == null) {
            return null;
        }
        String at = spec.source() + ":" + f.line() + ":" + f.column() + ": forceField";
        boolean damping = !Double.isNaN(f.dampingNspm());
        if (damping == (f.matrixNspm() != null)) {
            throw new SceneException(at + ": give exactly one of dampingNspm (a viscous field) and matrixNspm "
                + "(B by rows, N·s/m)");
        }
        if (damping) {
            return ForceField.viscous(f.dampingNspm());
        }
        double[][] b = f.matrixNspm();
        try {
            // JOML's constructor takes columns.
            return new ForceField(new Matrix3d(b[0][0], b[1][0], b[2][0], b[0][1], b[1][1], b[2][1], b[0][2],
                b[1][2], b[2][2]));
        } catch (IllegalArgumentException e) {
            throw new SceneException(at + ".matrixNspm: " + e.getMessage(), e);
        }
    }

    /**
     * The tool's proxy ({@code tool.rendering: proxy}): it meets every static and kinematic body the tool's contact
     * modes let the tool meet, with the scene's penalty spring, and the tool's own contacts with those bodies are
     * switched off (the proxy's spring is their force; the tool body, at the proxy, only touches them).
     */
    private static ProxyRenderer proxy(SceneSpec spec, PhysicsWorld world, int tool) {
        List<Integer> obstacles = new ArrayList<>();
        for (int body = 0; body < world.bodyCount(); body++) {
            if (body != tool && world.bodyType(body) != BodyType.DYNAMIC
                && world.contactMode(tool, body) != ContactMode.NONE) {
                obstacles.add(body);
            }
        }
        for (int body : obstacles) {
            world.setPairContactMode(tool, body, ContactMode.NONE);
        }
        PenaltyContactSettings spring = world.contactSettings().penalty();
        return new ProxyRenderer(world, obstacles.stream().mapToInt(Integer::intValue).toArray(),
            spec.tool().radiusM(), spring.stiffnessNpm(), spring.dampingNspm(), world.material(tool),
            spec.tool().forceShading() ? Math.toRadians(spec.tool().creaseAngleDeg()) : Double.NaN);
    }

    /**
     * The deformable bodies, after the rigid ones and the tool. The coupling is explicit, so its stiffness must keep
     * {@code k·Δt² + 2·b·Δt < 4·m} at the scene's rate for the lightest node; a scene that breaks it is refused
     * (the body's own integrator may diverge: showing that is what source 004's comparison is for).
     */
    private static ToolGrasps addDeformables(SceneSpec spec, PhysicsWorld world, int toolBody,
                                             Map<Integer, Solved> solved, Map<Integer, Integer> substeps,
                                             ToolGrasps.Rigid[] rigidGrabs)
            throws SceneException {
        double dtS = 1.0 / spec.rateHz();
        List<GrabSpec> grabs = new ArrayList<>();
        List<Integer> grabbed = new ArrayList<>();
        for (int i = 0; i < spec.deformables().size(); i++) {
            DeformableSpec d = spec.deformables().get(i);
            String at = spec.source() + ":" + d.line() + ":" + d.column() + ": deformables[" + i + "] (" + d.name()
                + "): ";
            DeformableBody body;
            try {
                if ("string".equals(d.type())) {
                    if (d.string() == null) {
                        throw new IllegalArgumentException("string: missing (the fields of a string)");
                    }
                    body = d.string().build(d.name(), d.nodeRadiusM(), spec.gravityMps2(), dtS);
                } else {
                MassSpringSpec massSpring = d.toSpec(spec.gravityMps2());
                Solved known = solved.get(i);
                if (known == null) {
                    SolvedKey key = new SolvedKey(massSpring, d.modesAboutEquilibrium(), d.startAtEquilibrium());
                    known = RECENTLY_SOLVED.get(key);
                    if (known == null) {
                        // A truncated body needs only its lowest modes: the sparse route, in memory that grows with
                        // its springs. Every other integrator steps with all n modes or n × n matrices.
                        boolean truncated = massSpring.integrator() == MassSpringSpec.Integrator.MODAL_TRUNCATED;
                        if (truncated) {
                            requireSparseBasisFits(massSpring);
                        } else {
                            requireDenseBasisFits(massSpring);
                        }
                        double[] equilibrium = d.modesAboutEquilibrium() || d.startAtEquilibrium()
                            ? MassSpringStatics.equilibrium(massSpring) : null;
                        double[] about = d.modesAboutEquilibrium() ? equilibrium : massSpring.restPositionM();
                        known = new Solved(equilibrium, truncated
                            ? ModalBasis.lowest(massSpring, about, massSpring.modes(),
                                Runtime.getRuntime().maxMemory() / 2)
                            : ModalBasis.of(massSpring, about));
                        RECENTLY_SOLVED.put(key, known);
                    }
                    solved.put(i, known);
                }
                Integer trialSubsteps = substeps.get(i);
                if (trialSubsteps != null) {
                    massSpring = new MassSpringSpec(massSpring.massKg(), massSpring.restPositionM(),
                        massSpring.springNodes(), massSpring.stiffnessNpm(), massSpring.restLengthM(),
                        massSpring.pinned(), massSpring.gravityMps2(), massSpring.dampingRatio(),
                        massSpring.integrator(), massSpring.modes(), trialSubsteps);
                }
                MassSpringBody massSpringBody = new MassSpringBody(d.name(), massSpring, d.nodeRadiusM(),
                    known.basis(), d.surfaceTriangles());
                requireStableSubstep(massSpringBody, d, dtS);
                if (d.startAtEquilibrium()) {
                    double[] equilibrium = known.equilibrium();
                    massSpringBody.setState(equilibrium, new double[equilibrium.length]);
                }
                body = massSpringBody;
                }
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new SceneException(at + e.getMessage(), e);
            }
            double lightestKg = Double.POSITIVE_INFINITY;
            for (int node = 0; node < body.nodeCount(); node++) {
                lightestKg = Math.min(lightestKg, body.nodeMassKg(node));
            }
            requireStableCoupling(at, "coupling", d.couplingStiffnessNpm(), d.couplingDampingNspm(), lightestKg,
                "a " + lightestKg + " kg node", spec.rateHz());
            // A dynamic body the nodes push moves too: the spring then acts on the pair's reduced mass, which is
            // below the node's (a 0.3 g ball against 2 g nodes allows 643 N/m, not the default 1000).
            int lightestBody = lightestDynamicBodyTouchingNodes(world);
            if (lightestBody >= 0) {
                double bodyKg = world.bodyMassKg(lightestBody);
                requireStableCoupling(at, "coupling", d.couplingStiffnessNpm(), d.couplingDampingNspm(),
                    lightestKg * bodyKg / (lightestKg + bodyKg), "a " + lightestKg + " kg node against body '"
                        + world.bodyName(lightestBody) + "' (" + bodyKg + " kg; their reduced mass)", spec.rateHz());
            }
            int index = world.addDeformable(body, d.couplingStiffnessNpm(), d.couplingDampingNspm());
            DeformableSpec.HoldSpec hold = d.heldByTool();
            if (hold != null) {
                if (hold.node() == -1) {
                    throw new SceneException(at + "heldByTool.node: missing (the node the tool holds, 0.."
                        + (body.nodeCount() - 1) + ")");
                }
                if (hold.node() < 0 || hold.node() >= body.nodeCount()) {
                    throw new SceneException(at + "heldByTool.node: " + hold.node() + " is not a node of 0.."
                        + (body.nodeCount() - 1));
                }
                if (body.nodePinned(hold.node())) {
                    throw new SceneException(at + "heldByTool.node: node " + hold.node() + " is pinned, so the tool "
                        + "could not move it: hold a free node");
                }
                requireStableCoupling(at, "heldByTool.", hold.stiffnessNpm(), hold.dampingNspm(),
                    body.nodeMassKg(hold.node()), "the held node", spec.rateHz());
                world.holdDeformableNode(index, hold.node(), toolBody, hold.stiffnessNpm(), hold.dampingNspm());
            }
            GrabSpec grab = d.grab();
            if (grab != null) {
                requireStableCoupling(at, "grab.", grab.stiffnessNpm(), grab.dampingNspm(), lightestKg,
                    "a " + lightestKg + " kg node", spec.rateHz());
                grabs.add(grab);
                grabbed.add(index);
            }
        }
        int n = grabs.size();
        int[] bodies = new int[n];
        int[] masks = new int[n];
        double[] reach = new double[n];
        double[] stiffness = new double[n];
        double[] damping = new double[n];
        for (int i = 0; i < n; i++) {
            bodies[i] = grabbed.get(i);
            masks[i] = 1 << grabs.get(i).button();
            reach[i] = grabs.get(i).reachM();
            stiffness[i] = grabs.get(i).stiffnessNpm();
            damping[i] = grabs.get(i).dampingNspm();
        }
        return n == 0 && rigidGrabs.length == 0 ? ToolGrasps.none()
            : new ToolGrasps(bodies, masks, reach, stiffness, damping, rigidGrabs);
    }

    /**
     * The dynamic bodies the stylus can grab ({@code bodies[].grab}). The hold is explicit, so
     * {@code k·Δt² + 2·b·Δt < 4·m_a} must hold for the body's effective mass at the farthest anchor a grab can take:
     * its bounding box's farthest corner plus the reach ({@link PhysicsWorld#anchorEffectiveMassKg}).
     */
    private static ToolGrasps.Rigid[] rigidGrabs(SceneSpec spec, PhysicsWorld world, int[] indices, double toolKg)
            throws SceneException {
        List<ToolGrasps.Rigid> grabs = new ArrayList<>();
        for (int i = 0; i < indices.length; i++) {
            BodySpec body = spec.bodies().get(i);
            GrabSpec grab = body.grab();
            if (grab == null) {
                continue;
            }
            int b = indices[i];
            double leverArmM = world.bodyExtentM(b) + grab.reachM();
            // A coupled proxy is a mass too: the hold's spring then moves the two masses' reduced mass.
            double anchorKg = 1.0 / (1.0 / world.anchorEffectiveMassKg(b, leverArmM) + 1.0 / toolKg);
            String at = spec.source() + ":" + grab.line() + ":" + grab.column() + ": bodies[" + i + "] ("
                + body.name() + "): ";
            requireStableCoupling(at, "grab.", grab.stiffnessNpm(), grab.dampingNspm(), anchorKg,
                String.format(java.util.Locale.ROOT, "the body held %.3g m from its centre (effective mass %.3g kg)",
                    leverArmM, anchorKg), spec.rateHz());
            grabs.add(new ToolGrasps.Rigid(b, "bodies[" + i + "]", 1 << grab.button(), grab.reachM(),
                grab.stiffnessNpm(), grab.dampingNspm()));
        }
        return grabs.toArray(new ToolGrasps.Rigid[0]);
    }

    /**
     * The bodies' vibrations ({@code material.vibration}), or null when no body has one. A vibration needs both its
     * fields, and a frequency at most half the loop's rate: sampled once a tick, a faster one would alias.
     */
    private static ContactVibration vibration(SceneSpec spec, PhysicsWorld world, int[] indices)
            throws SceneException {
        double[] frequencyHz = new double[world.bodyCount()];
        double[] amplitudeN = new double[world.bodyCount()];
        boolean any = false;
        for (int i = 0; i < indices.length; i++) {
            VibrationSpec v = spec.bodies().get(i).material().vibration();
            if (v == null) {
                continue;
            }
            String at = spec.source() + ":" + v.line() + ":" + v.column() + ": bodies[" + i + "] ("
                + spec.bodies().get(i).name() + "): material.vibration";
            if (Double.isNaN(v.frequencyHz()) || Double.isNaN(v.amplitudeN())) {
                throw new SceneException(at + ": give both frequencyHz and amplitudeN");
            }
            if (v.frequencyHz() > spec.rateHz() / 2.0) {
                throw new SceneException(at + ".frequencyHz: " + Numbers.significant(v.frequencyHz()) + " Hz is "
                    + "above half the loop's rate (" + spec.rateHz() + " Hz): sampled once a tick, it would alias");
            }
            frequencyHz[indices[i]] = v.frequencyHz();
            amplitudeN[indices[i]] = v.amplitudeN();
            any |= v.amplitudeN() > 0.0;
        }
        return any ? new ContactVibration(frequencyHz, amplitudeN) : null;
    }

    /** The bodies' magnets ({@code material.magnet}), or null when no body has one; each needs both its fields. */
    private static SurfaceMagnet magnet(SceneSpec spec, int[] indices) throws SceneException {
        MaterialPairs m = materialPairs(spec, indices, "magnet", MaterialSpec::magnet, "maxForceN",
            MagnetSpec::maxForceN, "distanceM", MagnetSpec::distanceM);
        return m == null ? null : new SurfaceMagnet(m.bodies(), m.first(), m.second(), spec.tool().radiusM());
    }

    /** The bodies with a {@code material} mapping of two required numbers: their indices and values, in file order. */
    private record MaterialPairs(int[] bodies, double[] first, double[] second) {
    }

    /**
     * The bodies whose material has the mapping {@code field}, with its two numbers, or null when none has; a
     * mapping without both is refused in one line naming the body and the field.
     */
    private static <M extends Located> MaterialPairs materialPairs(SceneSpec spec, int[] indices, String field,
            Function<MaterialSpec, M> mapping, String firstName, ToDoubleFunction<M> first, String secondName,
            ToDoubleFunction<M> second) throws SceneException {
        List<Integer> bodies = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        for (int i = 0; i < indices.length; i++) {
            M m = mapping.apply(spec.bodies().get(i).material());
            if (m == null) {
                continue;
            }
            if (Double.isNaN(first.applyAsDouble(m)) || Double.isNaN(second.applyAsDouble(m))) {
                throw new SceneException(spec.source() + ":" + m.line() + ":" + m.column() + ": bodies[" + i + "] ("
                    + spec.bodies().get(i).name() + "): material." + field + ": give both " + firstName + " and "
                    + secondName);
            }
            bodies.add(indices[i]);
            values.add(new double[] {first.applyAsDouble(m), second.applyAsDouble(m)});
        }
        if (bodies.isEmpty()) {
            return null;
        }
        return new MaterialPairs(bodies.stream().mapToInt(Integer::intValue).toArray(),
            values.stream().mapToDouble(v -> v[0]).toArray(), values.stream().mapToDouble(v -> v[1]).toArray());
    }

    /** The viscous bodies ({@code material.viscosityNspm} above 0), or null when no body is. */
    private static BodyViscosity viscosity(SceneSpec spec, int[] indices) {
        List<Integer> bodies = new ArrayList<>();
        List<Double> damping = new ArrayList<>();
        for (int i = 0; i < indices.length; i++) {
            double b = spec.bodies().get(i).material().viscosityNspm();
            if (b > 0.0) {
                bodies.add(indices[i]);
                damping.add(b);
            }
        }
        return bodies.isEmpty() ? null : new BodyViscosity(bodies.stream().mapToInt(Integer::intValue).toArray(),
            damping.stream().mapToDouble(Double::doubleValue).toArray(), spec.tool().radiusM());
    }

    /** The stick-slip surfaces ({@code material.stickSlip}), or null when no body has one; each needs both fields. */
    private static StickSlip stickSlip(SceneSpec spec, PhysicsWorld world, int[] indices) throws SceneException {
        MaterialPairs s = materialPairs(spec, indices, "stickSlip", MaterialSpec::stickSlip, "stiffnessNpm",
            StickSlipSpec::stiffnessNpm, "maxForceN", StickSlipSpec::maxForceN);
        return s == null ? null : new StickSlip(world.bodyCount(), s.bodies(), s.first(), s.second());
    }

    /** The grating textures ({@code material.texture}), or null when no body has one; each needs all three fields. */
    private static GratingTexture texture(SceneSpec spec, PhysicsWorld world, int[] indices) throws SceneException {
        List<Integer> bodies = new ArrayList<>();
        List<TextureSpec> textures = new ArrayList<>();
        for (int i = 0; i < indices.length; i++) {
            TextureSpec t = spec.bodies().get(i).material().texture();
            if (t == null) {
                continue;
            }
            if (Double.isNaN(t.periodM()) || Double.isNaN(t.amplitudeM()) || t.direction() == null) {
                throw new SceneException(spec.source() + ":" + t.line() + ":" + t.column() + ": bodies[" + i + "] ("
                    + spec.bodies().get(i).name() + "): material.texture: give periodM, amplitudeM and direction");
            }
            bodies.add(indices[i]);
            textures.add(t);
        }
        if (bodies.isEmpty()) {
            return null;
        }
        return new GratingTexture(world.bodyCount(), bodies.stream().mapToInt(Integer::intValue).toArray(),
            textures.stream().mapToDouble(TextureSpec::periodM).toArray(),
            textures.stream().mapToDouble(TextureSpec::amplitudeM).toArray(),
            textures.stream().map(t -> vector(t.direction())).toArray(Vector3d[]::new));
    }

    /** The tool's impact transients, from each body's material and the scene's device, safety and impulse waveform. */
    private static ImpactTransients transients(SceneSpec spec, PhysicsWorld world, int[] indices,
                                               ImpulseWaveformModel impulse) {
        int n = world.bodyCount();
        boolean[] enabled = new boolean[n];
        double[] gain = new double[n];
        double[] elasticity = new double[n];
        for (int i = 0; i < indices.length; i++) {
            MaterialSpec material = spec.bodies().get(i).material();
            enabled[indices[i]] = material.transients();
            gain[indices[i]] = material.transientGain();
            elasticity[indices[i]] = material.elasticity();
        }
        double forceLimitN = Math.min(spec.safety().maxForceN(), spec.device().maxForceN());
        return new ImpactTransients(impulse.settings(), spec.device().effectiveMassKg(),
            spec.contact().toSettings().impactThresholdMps(), spec.safety().transientBudget(), forceLimitN,
            Material.DEFAULT.elasticity(), enabled, gain, elasticity);
    }

    /**
     * Sizes the world's contact storage once, now, so that nothing grows on the real-time path: the scene's budget
     * ({@link ContactSpec#budget}). Refused in one line when the budget would not fit the heap, or when the bodies'
     * initial poses already need more pairs or points than it holds (a budget that overflows from the first step
     * is a scene error, not something to run degraded).
     */
    /** The contact budget may take at most this fraction (one over it) of the JVM's maximum heap. */
    static final int BUDGET_HEAP_SHARE = 4;

    private static void applyContactBudget(SceneSpec spec, PhysicsWorld world) throws SceneException {
        int staticBodies = 0;
        for (int body = 0; body < world.bodyCount(); body++) {
            if (world.bodyType(body) == BodyType.STATIC) {
                staticBodies++;
            }
        }
        ContactSpec contact = spec.contact();
        ContactBudget budget = contact.budget(world.bodyCount(), staticBodies, 1);
        String where = spec.source() + ": scene '" + spec.name() + "': ";
        Runtime runtime = Runtime.getRuntime();
        requireBudgetFitsHeap(spec, budget);
        ContactNeed need = world.contactNeed();
        if (need.pairs() > budget.maxPairs()) {
            throw new SceneException(where + "contact budget too small: the initial poses have " + need.pairs()
                + " overlapping pairs, the budget holds " + budget.maxPairs() + " (contact.maxPairs"
                + (contact.hasMaxPairs() ? "" : "; default " + ContactBudget.PAIRS_PER_MOVING_BODY
                    + " per moving body and 1 per tool and other body") + ")");
        }
        if (need.points() > budget.maxPoints()) {
            throw new SceneException(where + "contact budget too small: the initial poses have " + need.points()
                + " contact points, the budget holds " + budget.maxPoints() + " (contact.maxPoints"
                + (contact.hasMaxPoints() ? "" : "; default " + ContactBudget.POINTS_PER_MOVING_BODY
                    + " per moving body and " + ContactBudget.POINTS_PER_TOOL_PAIR + " per tool and other body")
                + ")");
        }
        try {
            world.setContactBudget(budget);
        } catch (OutOfMemoryError e) {
            throw new SceneException(where + "contact budget " + describe(budget) + " (about "
                + megabytes(budget.bytes()) + " MB) did not fit the heap (JVM maximum " + megabytes(runtime.maxMemory())
                + " MB): lower contact.maxPairs and contact.maxPoints, or raise -Xmx (HAPTICSD_JAVA_OPTS)");
        }
    }

    /**
     * A quarter of the JVM's maximum heap at most: `run` holds the scene and its JIT warm-up copy at once, and the
     * loop, the stream and the recorder need the rest. Against the maximum, not the free heap: the free heap counts
     * garbage not yet collected, so the same scene was refused in some runs and loaded in others.
     */
    private static void requireBudgetFitsHeap(SceneSpec spec, ContactBudget budget) throws SceneException {
        Runtime runtime = Runtime.getRuntime();
        if (budget.bytes() > runtime.maxMemory() / BUDGET_HEAP_SHARE) {
            throw new SceneException(spec.source() + ": scene '" + spec.name() + "': contact budget "
                + describe(budget) + " needs about " + megabytes(budget.bytes()) + " MB of heap, more than a quarter "
                + "of the JVM's maximum heap (" + megabytes(runtime.maxMemory()) + " MB): lower contact.maxPairs "
                + "and contact.maxPoints, or raise -Xmx (HAPTICSD_JAVA_OPTS)");
        }
    }

    private static String describe(ContactBudget budget) {
        return "of " + budget.maxPairs() + " pairs and " + budget.maxPoints() + " points";
    }

    private static long megabytes(long bytes) {
        return (bytes + (1L << 20) - 1) >> 20;
    }

    /** Default density of a dynamic body given neither a mass nor a density: water, 1000 kg/m³. */
    public static final double DEFAULT_DENSITY_KGPM3 = 1000.0;

    private static int addBody(PhysicsWorld world, SceneSpec spec, BodySpec body) throws SceneException {
        double[] q = body.orientation();
        Quaterniond orientation = new Quaterniond(q[1], q[2], q[3], q[0]);
        Vector3d position = vector(body.positionM());
        Material material = body.material().toMaterial();
        int index;
        switch (body.motion()) {
            case STATIC -> index = world.addStaticBody(body.name(), shape(spec, body), position, orientation, material);
            case KINEMATIC -> index = world.addKinematicBody(body.name(), shape(spec, body), position, orientation,
                material);
            default -> index = addDynamicBody(world, spec, body, position, orientation, material);
        }
        if (body.motion() == BodySpec.Motion.KINEMATIC) {
            // A kinematic body stays where it is put; its velocity is what contacts see (a conveyor surface).
            world.setKinematicState(index, position, orientation, vector(body.velocityMps()),
                vector(body.angularVelocityRadps()));
        } else if (body.motion() == BodySpec.Motion.DYNAMIC) {
            world.setBodyVelocity(index, vector(body.velocityMps()), vector(body.angularVelocityRadps()));
        }
        if (body.motion() == BodySpec.Motion.DYNAMIC) {
            world.setDamping(index, body.linearDampingPerS(), body.angularDampingPerS());
        }
        return index;
    }

    /**
     * The engine puts a dynamic body's origin at its centre of mass. A hull whose centre of mass is not at its
     * local origin is therefore shifted so that it is, and the body placed where the file's origin would put it:
     * the shape stays where the scene author drew it.
     */
    private static int addDynamicBody(PhysicsWorld world, SceneSpec spec, BodySpec body, Vector3d position,
                                      Quaterniond orientation, Material material) throws SceneException {
        Shape shape = shape(spec, body);
        MassProperties mass = Double.isNaN(body.massKg())
            ? MassPropertiesCalculator.ofDensity(shape,
                Double.isNaN(body.densityKgpm3()) ? DEFAULT_DENSITY_KGPM3 : body.densityKgpm3())
            : MassPropertiesCalculator.ofMass(shape, body.massKg());
        Vector3d centre = mass.centreOfMassM(new Vector3d());
        if (centre.lengthSquared() > 0 && shape instanceof ConvexHullShape hull) {
            shape = new ConvexHullShape(recentred(hull.hull(), centre));
            position.add(orientation.transform(new Vector3d(centre)));
        }
        try {
            return world.addDynamicBody(body.name(), shape, position, orientation, mass.massKg(),
                mass.inertiaKgM2(new Matrix3d()), material);
        } catch (IllegalArgumentException e) {
            // A scene has no inertia field: say where the refused tensor came from (a 1e160 kg ball overflows it).
            String engine = "inertiaKgM2 ";
            if (e.getMessage() != null && e.getMessage().startsWith(engine)) {
                throw new IllegalArgumentException("the inertia that massKg (or densityKgpm3) gives this shape "
                    + e.getMessage().substring(engine.length()), e);
            }
            throw e;
        }
    }

    private static ConvexHull recentred(ConvexHull hull, Vector3d centre) {
        double[] points = new double[3 * hull.vertexCount()];
        for (int i = 0; i < hull.vertexCount(); i++) {
            points[3 * i] = hull.vertexX(i) - centre.x;
            points[3 * i + 1] = hull.vertexY(i) - centre.y;
            points[3 * i + 2] = hull.vertexZ(i) - centre.z;
        }
        return ConvexHull.of(points);
    }

    private static Supplier<HandTarget> handTargets(HandSpec hand) {
        if (hand.path().isEmpty()) {
            double[] t = hand.targetM();
            FixedHandTarget fixed = new FixedHandTarget(t[0], t[1], t[2]);
            return () -> fixed;
        }
        List<WaypointHandTarget.Waypoint> waypoints = new ArrayList<>();
        for (WaypointSpec w : hand.path()) {
            double[] p = w.positionM();
            waypoints.add(new WaypointHandTarget.Waypoint(w.tS(), p[0], p[1], p[2], w.buttons()));
        }
        List<WaypointHandTarget.Waypoint> frozen = List.copyOf(waypoints);
        boolean loop = hand.loop();
        new WaypointHandTarget(frozen, loop); // fail at load time, not when a device is created
        return () -> new WaypointHandTarget(frozen, loop);
    }

    private static Shape shape(SceneSpec scene, BodySpec body) throws SceneException {
        ShapeSpec spec = body.shape();
        if (spec instanceof ShapeSpec.Sphere sphere) {
            return new SphereShape(sphere.radiusM());
        }
        if (spec instanceof ShapeSpec.Plane plane) {
            return new PlaneShape(vector(plane.normal()));
        }
        if (spec instanceof ShapeSpec.Box box) {
            double[] h = box.halfExtentsM();
            return new BoxShape(h[0], h[1], h[2]);
        }
        if (spec instanceof ShapeSpec.Capsule capsule) {
            return new CapsuleShape(capsule.radiusM(), capsule.halfLengthM());
        }
        if (spec instanceof ShapeSpec.Hull hull) {
            double[][] points = hull.pointsM();
            double[] flat = new double[3 * points.length];
            for (int i = 0; i < points.length; i++) {
                System.arraycopy(points[i], 0, flat, 3 * i, 3);
            }
            return new ConvexHullShape(ConvexHull.of(flat));
        }
        ShapeSpec.Mesh mesh = (ShapeSpec.Mesh) spec;
        Path file = scene.baseDirectory().resolve(mesh.file());
        if (!Files.isRegularFile(file)) {
            throw new SceneException(scene.source() + ":" + spec.line() + ":" + spec.column() + ": " + body.name()
                + ".shape.file: " + (Files.isDirectory(file) ? "is a directory, not a mesh file: "
                    : Files.exists(file) ? "not a regular file (a device, FIFO or socket), not a mesh file: "
                    : "mesh file not found: ") + file);
        }
        try {
            return new TriangleMeshShape(scaled(MeshLoader.load(file), mesh.scale()));
        } catch (IOException e) {
            throw new SceneException(scene.source() + ":" + spec.line() + ":" + spec.column() + ": " + body.name()
                + ".shape.file: " + e.getMessage(), e);
        }
    }

    private static TriangleMesh scaled(TriangleMesh mesh, double scale) {
        if (scale == 1.0) {
            return mesh;
        }
        double[] vertices = new double[3 * mesh.vertexCount()];
        for (int i = 0; i < mesh.vertexCount(); i++) {
            vertices[3 * i] = mesh.vertexX(i) * scale;
            vertices[3 * i + 1] = mesh.vertexY(i) * scale;
            vertices[3 * i + 2] = mesh.vertexZ(i) * scale;
        }
        int[] triangles = new int[3 * mesh.triangleCount()];
        for (int t = 0; t < mesh.triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                triangles[3 * t + k] = mesh.corner(t, k);
            }
        }
        return new TriangleMesh(vertices, triangles);
    }

    private static Vector3d vector(double[] xyz) {
        return new Vector3d(xyz[0], xyz[1], xyz[2]);
    }

    /**
     * Refuses a mass-spring body whose integrator is unstable at the scene's substep on its highest integrated mode
     * ({@link MassSpringBody#stableStepLimitS}): such a body reaches NaN within seconds, and a body blowing up
     * throws whatever it touches. The message gives the substeps that would do, and truncation as the other way.
     */
    /**
     * Heap a mass-spring body's dense solves take, bytes per (free DOF)²: the modal basis (the tangent stiffness,
     * the eigendecomposition's working copies and eigenvectors, φ) and, for a damped Newmark body, [c] and the
     * inverse of m + ½·Δt·c: about ten n × n matrices of doubles.
     */
    static final long DENSE_BYTES_PER_DOF_SQUARED = 10 * Double.BYTES;

    /**
     * Refuses a body whose dense n × n solves cannot fit half the heap, at once and in one line. A tester's 40 × 40
     * grid (4,800 free DOFs) spent 190 s in the eigendecomposition before running out of memory, and 200 × 200 failed
     * with the linear-algebra library's "Matrix size exceeds the size of an integer".
     */
    private static void requireDenseBasisFits(MassSpringSpec massSpring) {
        long dofs = massSpring.freeDofs();
        double needBytes = (double) DENSE_BYTES_PER_DOF_SQUARED * dofs * dofs;
        long haveBytes = Runtime.getRuntime().maxMemory() / 2;
        if (needBytes > haveBytes) {
            long fitNodes = (long) (Math.sqrt((double) haveBytes / DENSE_BYTES_PER_DOF_SQUARED) / 3);
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                "%d nodes (%d free degrees of freedom) need about %.0f MB for the dense modal basis and solves, more "
                    + "than half the heap (%d MB): at most about %d free nodes fit; use fewer nodes or give the JVM "
                    + "more heap (HAPTICSD_JAVA_OPTS, e.g. -Xmx4g)", massSpring.nodeCount(), dofs, needBytes / 1e6,
                haveBytes * 2 / (1024 * 1024), fitNodes));
        }
    }

    /**
     * Refuses a truncated body whose sparse solves ({@link ModalBasis#lowestBytes}: the stiffness's factor and the
     * iteration's blocks of vectors) cannot fit half the heap, at once and in one line.
     */
    private static void requireSparseBasisFits(MassSpringSpec massSpring) {
        double needBytes = ModalBasis.lowestBytes(massSpring, massSpring.modes());
        long haveBytes = Runtime.getRuntime().maxMemory() / 2;
        if (needBytes > haveBytes) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                "%d nodes (%d free degrees of freedom) need about %.0f MB for their %d lowest modes (the stiffness's "
                    + "sparse factor and the iteration's vectors), more than half the heap (%d MB): use fewer nodes "
                    + "or modes, or give the JVM more heap (HAPTICSD_JAVA_OPTS, e.g. -Xmx4g)", massSpring.nodeCount(),
                massSpring.freeDofs(), needBytes / 1e6, massSpring.modes(), haveBytes * 2 / (1024 * 1024)));
        }
    }

    private static void requireStableSubstep(MassSpringBody body, DeformableSpec d, double dtS) {
        double limitS = body.stableStepLimitS();
        double hS = dtS / d.substeps();
        if (hS < limitS) {
            return;
        }
        long substeps = (long) Math.floor(dtS / limitS) + 1;
        String integrator = d.integrator().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "integrator: %s is unstable at this "
            + "step: its %s is %.4g rad/s, so a substep must be shorter than %.4g ms, and %.4g ms "
            + "(%d Hz, substeps: %d) is not; use substeps: %d or more%s", integrator,
            d.integrator() == MassSpringSpec.Integrator.MODAL_TRUNCATED ? "highest kept mode" : "highest mode",
            body.highestIntegratedModeRadps(),
            limitS * 1e3, hS * 1e3, Math.round(1 / dtS), d.substeps(), substeps,
            d.integrator() == MassSpringSpec.Integrator.MODAL_TRUNCATED ? ", or fewer modes"
                : ", or modal-truncated with only the modes below " + String.format(java.util.Locale.ROOT, "%.4g",
                    2 / hS) + " rad/s (docs/deformable.md)"));
    }


    /** The lightest dynamic rigid body whose contact mode lets deformable nodes push it, or −1. */
    private static int lightestDynamicBodyTouchingNodes(PhysicsWorld world) {
        int lightest = -1;
        for (int b = 0; b < world.bodyCount(); b++) {
            if (world.bodyType(b) == BodyType.DYNAMIC && world.touchesDeformableNodes(b)
                    && (lightest < 0 || world.bodyMassKg(b) < world.bodyMassKg(lightest))) {
                lightest = b;
            }
        }
        return lightest;
    }

    /**
     * PENALTY contacts are explicit: a dynamic body on the contact spring k with damper b is stable at Δt only while
     * {@code k·Δt² + 2·b·Δt < 4·m} (docs/scenes.md, section 4, "Integration bound"), with m the body's mass against a
     * static or kinematic body (the tool), and the two bodies' reduced mass between two dynamic ones. That is the
     * bound of one point through the centre of mass, the loosest the body can meet (a lever arm or several points on
     * one mode tighten it), so a scene that fails it is certain to blow up: a tester's 1 g ball on a 1e9 N/m floor at
     * 4 kHz left at 24 km/s. Such a scene is refused, naming the body, its partner and what would do.
     *
     * <p>Only bodies of at most twice the critical mass {@code (k·Δt² + 2·b·Δt)/4} are examined: a pair's reduced
     * mass is at most the critical mass only if one of them is that light.
     */
    private static void requireStablePenaltyContacts(SceneSpec spec, PhysicsWorld world, int[] indices)
            throws SceneException {
        PenaltyContactSettings spring = world.contactSettings().penalty();
        double dtS = 1.0 / spec.rateHz();
        double criticalKg = (spring.stiffnessNpm() * dtS * dtS + 2.0 * spring.dampingNspm() * dtS) / 4.0;
        for (int i = 0; i < indices.length; i++) {
            int a = indices[i];
            if (world.bodyType(a) != BodyType.DYNAMIC || world.bodyMassKg(a) > 2.0 * criticalKg) {
                continue;
            }
            int b = worstPenaltyPartner(world, a);
            if (b < 0 || springMassKg(world, a, b) > criticalKg) {
                continue;
            }
            double massKg = springMassKg(world, a, b);
            BodySpec body = spec.bodies().get(i);
            double limitNpm = (4.0 * massKg - 2.0 * spring.dampingNspm() * dtS) / (dtS * dtS);
            String remedy = limitNpm > 0
                ? "lower contact.stiffnessNpm below " + Numbers.significant(limitNpm) + " N/m"
                : "lower contact.dampingNspm below " + Numbers.significant(2.0 * massKg / dtS) + " N·s/m";
            String which = world.bodyType(b) == BodyType.DYNAMIC ? "the two bodies' reduced mass" : "the body's mass";
            throw new SceneException(spec.source() + ":" + body.line() + ":" + body.column() + ": bodies[" + i
                + "] (" + body.name() + "): its PENALTY contact with '" + world.bodyName(b) + "' is unstable at "
                + spec.rateHz() + " Hz: k·Δt² + 2·b·Δt < 4·m fails for m = " + Numbers.significant(massKg)
                + " kg (" + which + ") with contact.stiffnessNpm " + Numbers.significant(spring.stiffnessNpm())
                + " N/m and contact.dampingNspm " + Numbers.significant(spring.dampingNspm()) + " N·s/m; "
                + remedy + ", make the body heavier, or give its contacts mode lcp (docs/scenes.md, "
                + "\"Integration bound\")");
        }
    }

    /**
     * The body {@code a} meets in PENALTY that leaves the least mass on the spring ({@link #springMassKg}; the first
     * of equals), or −1 when it meets none.
     */
    private static int worstPenaltyPartner(PhysicsWorld world, int a) {
        int worst = -1;
        for (int b = 0; b < world.bodyCount(); b++) {
            if (b != a && world.contactMode(a, b) == ContactMode.PENALTY
                    && (worst < 0 || springMassKg(world, a, b) < springMassKg(world, a, worst))) {
                worst = b;
            }
        }
        return worst;
    }

    /**
     * The mass a contact spring between dynamic body {@code a} and body {@code b} moves: {@code a}'s own against a
     * static or kinematic body (infinite mass), the two bodies' reduced mass against a dynamic one.
     */
    private static double springMassKg(PhysicsWorld world, int a, int b) {
        double massA = world.bodyMassKg(a);
        if (world.bodyType(b) != BodyType.DYNAMIC) {
            return massA;
        }
        double massB = world.bodyMassKg(b);
        return massA * massB / (massA + massB);
    }

    /** At most this many bodies are named by {@link #penaltyMarginWarnings}; a last line counts the rest. */
    private static final int MAX_MARGIN_WARNINGS = 3;

    /**
     * The bodies that pass {@link #requireStablePenaltyContacts} yet sit on a PENALTY spring stiff for their mass:
     * {@code α + 2β = (k·Δt² + 2·b·Δt)/m >= 1}, m as there. The bound there is a two-sided spring's, and a contact
     * only pushes: measured, a resting 1 g sphere bounced off the floor from α + 2β ≈ 3.2 with the default damping,
     * and from α ≈ 1.5 without (docs/scenes.md, "Integration bound"). Below 1 it rested in every case tried. Legal,
     * since a body that never rests on it may be meant, so a warning per body (the worst partner), the first
     * {@link #MAX_MARGIN_WARNINGS} named.
     */
    private static List<String> penaltyMarginWarnings(SceneSpec spec, PhysicsWorld world, int[] indices) {
        PenaltyContactSettings spring = world.contactSettings().penalty();
        double dtS = 1.0 / spec.rateHz();
        double spentKg = spring.stiffnessNpm() * dtS * dtS + 2.0 * spring.dampingNspm() * dtS;
        List<String> warnings = new ArrayList<>();
        int more = 0;
        for (int i = 0; i < indices.length; i++) {
            int a = indices[i];
            double massA = world.bodyMassKg(a);
            // α + 2β >= 1 needs m <= spentKg; a pair's reduced mass is at least half the lighter body's.
            if (world.bodyType(a) != BodyType.DYNAMIC || massA > 2.0 * spentKg) {
                continue;
            }
            int worst = worstPenaltyPartner(world, a);
            double worstKg = worst < 0 ? Double.POSITIVE_INFINITY : springMassKg(world, a, worst);
            if (worst < 0 || spentKg / worstKg < 1.0) {
                continue;
            }
            if (warnings.size() == MAX_MARGIN_WARNINGS) {
                more++;
                continue;
            }
            double limitNpm = (worstKg - 2.0 * spring.dampingNspm() * dtS) / (dtS * dtS);
            String remedy = limitNpm > 0
                ? "lower contact.stiffnessNpm below " + Numbers.significant(limitNpm) + " N/m"
                : "lower contact.dampingNspm below " + Numbers.significant(worstKg / (2.0 * dtS)) + " N·s/m";
            String ratio = Numbers.significant(spentKg / worstKg);
            warnings.add("scene '" + spec.name() + "': body '" + spec.bodies().get(i).name() + "' meets '"
                + world.bodyName(worst) + "' in PENALTY with (k·Δt² + 2·b·Δt)/m = " + ratio
                + " at " + spec.rateHz() + " Hz (m = " + Numbers.significant(worstKg) + " kg): a contact spring this "
                + "stiff for the mass can bounce a resting body by itself; keep it below 1: " + remedy
                + ", make the body heavier, or give its contacts mode lcp (docs/scenes.md, \"Integration bound\")");
        }
        if (more > 0) {
            warnings.add("scene '" + spec.name() + "': " + more + " more bodies meet a PENALTY spring as stiff for "
                + "their mass");
        }
        return warnings;
    }

    /**
     * A spring–damper on a node (the contact coupling, a grasp, a grab) must be stable on the lightest node it can
     * act on at the scene's rate: k·Δt² + 2·b·Δt < 4·m ({@link PhysicsWorld#maxStableCouplingStiffnessNpm}). When
     * the damping alone breaks it, no stiffness can help, and the message says so rather than give a negative limit.
     *
     * @param prefix {@code "coupling"} (the body's {@code couplingStiffnessNpm}) or a field prefix ending in '.'
     */
    private static void requireStableCoupling(String at, String prefix, double stiffnessNpm, double dampingNspm,
                                              double massKg, String node, int rateHz) throws SceneException {
        double dtS = 1.0 / rateHz;
        double limitNpm = PhysicsWorld.maxStableCouplingStiffnessNpm(massKg, dampingNspm, dtS);
        String stiffness = prefix.endsWith(".") ? prefix + "stiffnessNpm" : prefix + "StiffnessNpm";
        String damping = prefix.endsWith(".") ? prefix + "dampingNspm" : prefix + "DampingNspm";
        if (!(limitNpm > 0)) {
            throw new SceneException(at + damping + " " + dampingNspm + " N·s/m alone is too much for " + node
                + " at " + rateHz + " Hz: 2·b·Δt < 4·m needs b below " + String.format(java.util.Locale.ROOT, "%.4g",
                2 * massKg / dtS) + " N·s/m");
        }
        if (!(stiffnessNpm < limitNpm)) {
            throw new SceneException(at + stiffness + " " + stiffnessNpm + " N/m is not below "
                + String.format(java.util.Locale.ROOT, "%.4g", limitNpm) + " N/m, the most " + node
                + " keeps stable at " + rateHz + " Hz (k·Δt² + 2·b·Δt < 4·m)");
        }
    }

}
