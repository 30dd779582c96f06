package org.hapticsd.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.hapticsd.physics.ContactSettings;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.server.loop.LoopCommand;
import org.hapticsd.server.net.SettableParameter;
import org.hapticsd.server.render.BodyViscosity;
import org.hapticsd.server.render.ContactVibration;
import org.hapticsd.server.render.GratingTexture;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.StickSlip;
import org.hapticsd.server.render.SurfaceMagnet;
import org.hapticsd.server.render.VirtualCoupling;
import org.hapticsd.server.scene.BuiltScene;

/**
 * The numbers of one scene that a stream client's SET_PARAMETER (docs/stream-protocol.md, 4.7) and a test script's
 * {@code set} step may change while it runs: the force scale, the contact's spring and damper, the coupling's for a
 * scene rendered by coupling, and the bodies' material effects, {@code bodies.NAME.FIELD} (a psychophysics run changes
 * a grating's amplitude or a vibration's frequency between trials without reloading the scene). For each: the value the
 * scene was loaded with, the value set since, its limits, and the loop command that sets it.
 *
 * <p>The limits follow the server's rule, a remote user may only soften what the scene file sets, as each number is
 * judged at load by the passivity and rating checks: a stiffness, a damping, an amplitude or a force between 0 and its
 * loaded value (a spring's stiffness above 0, a damper's may be 0); a grating's amplitude and period together within
 * its loaded stiffness {@code A·(2π/λ)²} (a longer period, or a smaller amplitude); a vibration's frequency up to half
 * the loop's rate; the force scale in [0, 1].
 *
 * <p>Built off the loop thread from a freshly built scene, before the loop has it; used by one thread at a time (under
 * the lock of {@link ServerCommands}; a test script's runner, which sets its {@code set} steps' in timeline order).
 */
public final class SceneParameters {
    public static final String PREFIX = "bodies.";
    public static final String FORCE_SCALE = "render.forceScale";
    public static final String STIFFNESS = "contact.stiffnessNpm";
    public static final String DAMPING = "contact.dampingNspm";
    /** The virtual coupling's spring, for a scene whose tool is rendered by coupling. */
    public static final String COUPLING_STIFFNESS = "coupling.stiffnessNpm";
    /** The virtual coupling's damper, for a scene whose tool is rendered by coupling. */
    public static final String COUPLING_DAMPING = "coupling.dampingNspm";
    /** Why a remote user's value may not go above the file's. */
    static final String SOFTEN_ONLY = "a remote user may only lower what the scene file sets";

    /** One number: its loaded and current values, and how a pair of them reaches the loop. */
    private static final class Entry {
        final double loaded;
        double value;
        /** The other number of the pair (a grating's period for its amplitude, a damper for its spring), or null. */
        Entry partner;
        /** The loop command that sets (this value, the partner's value), in the pair's own order. */
        final PairSetter setter;
        /** Where the value may go, worked out when it is checked (a grating's depends on its partner's value). */
        Function<Entry, Range> range;

        Entry(double loaded, PairSetter setter) {
            this.loaded = loaded;
            this.value = loaded;
            this.setter = setter;
        }
    }

    /** The loop command that sets a pair's two numbers, given this entry's value and its partner's. */
    @FunctionalInterface
    private interface PairSetter {
        LoopCommand command(double mine, double partners);
    }

    /** {@code [low, high]} or {@code (low, high]} (an infinite high is open), and why. */
    private record Range(double low, boolean lowIncluded, double high, String why) {
        boolean holds(double v) {
            return (lowIncluded ? v >= low : v > low) && (v <= high || high == Double.POSITIVE_INFINITY)
                && Double.isFinite(v);
        }

        @Override
        public String toString() {
            // "(0," rather than "(0.0,": a bound that is itself refused is the idea of zero, not a number to type.
            return (lowIncluded ? "[" + low : "(" + (low == 0.0 ? "0" : String.valueOf(low))) + ", "
                + (high == Double.POSITIVE_INFINITY ? "∞)" : high + "]") + " (" + why + ")";
        }
    }

    /** From 0 (included for a damper, an amplitude or a force; not for a spring) up to the loaded value. */
    private static Function<Entry, Range> upToLoaded(boolean zeroIncluded) {
        return e -> new Range(0.0, zeroIncluded, e.loaded, SOFTEN_ONLY);
    }

    private static Function<Entry, Range> springUpToLoaded() {
        return e -> new Range(0.0, false, e.loaded, "a spring needs a stiffness above 0; " + SOFTEN_ONLY);
    }

    /** A grating's amplitude: A·(2π/λ)² at most its loaded value, with the current period (its partner). */
    private static Range textureAmplitude(Entry amplitude) {
        return new Range(0.0, false, loadedStiffness(amplitude) / square(2.0 * Math.PI / amplitude.partner.value),
            "within the grating's loaded stiffness A·(2π/λ)² at the current period; " + SOFTEN_ONLY);
    }

    /** A grating's period: as long as the current amplitude (its partner) needs to keep A·(2π/λ)² loaded or less. */
    private static Range texturePeriod(Entry period) {
        return new Range(2.0 * Math.PI * Math.sqrt(period.partner.value / loadedStiffness(period.partner)), true,
            Double.POSITIVE_INFINITY, "within the grating's loaded stiffness A·(2π/λ)² at the current amplitude; "
                + SOFTEN_ONLY);
    }

    private final Map<String, Entry> entries = new LinkedHashMap<>();

    private SceneParameters() {
    }

    /**
     * The parameters of {@code scene}, at their loaded values, the force scale at {@code forceScale} (the loop's: a
     * new scene keeps it).
     */
    public static SceneParameters of(BuiltScene scene, int rateHz, double forceScale) {
        SceneParameters p = new SceneParameters();
        HapticScene haptic = scene.haptic();
        Entry scale = p.single(FORCE_SCALE, 1.0,
            e -> new Range(0.0, true, 1.0, "multiplies the rendered force; 1 renders it whole"),
            value -> loop -> loop.setForceScale(value));
        scale.value = forceScale;

        // A command meant for this scene must not touch one that replaced it meanwhile.
        PhysicsWorld world = haptic.world();
        ContactSettings loaded = world.contactSettings();
        p.pair(STIFFNESS, loaded.penalty().stiffnessNpm(), springUpToLoaded(),
            DAMPING, loaded.penalty().dampingNspm(), upToLoaded(true), (k, b) -> {
                ContactSettings settings = loaded.withPenalty(new PenaltyContactSettings(k, b));
                return loop -> {
                    if (loop.world() == world) {
                        world.setContactSettings(settings);
                    }
                };
            });
        VirtualCoupling coupling = haptic.coupling();
        if (coupling != null) {
            p.pair(COUPLING_STIFFNESS, coupling.stiffnessNpm(), springUpToLoaded(),
                COUPLING_DAMPING, coupling.dampingNspm(), upToLoaded(true), (k, b) -> loop -> coupling.set(k, b));
        }
        p.addMaterials(scene, rateHz);
        return p;
    }

    private void addMaterials(BuiltScene scene, int rateHz) {
        HapticScene haptic = scene.haptic();
        GratingTexture texture = haptic.effect(GratingTexture.class);
        ContactVibration vibration = haptic.effect(ContactVibration.class);
        StickSlip stickSlip = haptic.effect(StickSlip.class);
        BodyViscosity viscosity = haptic.effect(BodyViscosity.class);
        SurfaceMagnet magnet = haptic.effect(SurfaceMagnet.class);
        for (int i = 0; i < scene.bodyIndices().length; i++) {
            String name = PREFIX + scene.bodyNames().get(i) + ".";
            int body = scene.bodyIndices()[i];
            if (texture != null && texture.amplitudeM(body) > 0.0) {
                pair(name + "texture.periodM", texture.periodM(body), SceneParameters::texturePeriod,
                    name + "texture.amplitudeM", texture.amplitudeM(body), SceneParameters::textureAmplitude,
                    (period, amplitude) -> loop -> texture.set(body, period, amplitude));
            }
            if (vibration != null && vibration.amplitudeN(body) > 0.0) {
                Function<Entry, Range> frequency = e -> new Range(0.0, false, rateHz / 2.0,
                    "up to half the loop's rate: sampled once a tick, a faster one would alias");
                pair(name + "vibration.frequencyHz", vibration.frequencyHz(body), frequency,
                    name + "vibration.amplitudeN", vibration.amplitudeN(body), upToLoaded(true),
                    (hz, amplitude) -> loop -> vibration.set(body, hz, amplitude));
            }
        }
        for (int i = 0; stickSlip != null && i < stickSlip.count(); i++) {
            int body = stickSlip.body(i);
            String name = PREFIX + haptic.world().bodyName(body) + ".";
            pair(name + "stickSlip.stiffnessNpm", stickSlip.stiffnessNpm(i), upToLoaded(false),
                name + "stickSlip.maxForceN", stickSlip.maxForceN(i), upToLoaded(false),
                (k, force) -> loop -> stickSlip.set(body, k, force));
        }
        for (int i = 0; viscosity != null && i < viscosity.count(); i++) {
            int slot = i;
            single(PREFIX + haptic.world().bodyName(viscosity.body(i)) + ".viscosityNspm", viscosity.dampingNspm(i),
                upToLoaded(true), b -> loop -> viscosity.setDampingNspm(slot, b));
        }
        for (int i = 0; magnet != null && i < magnet.count(); i++) {
            int slot = i;
            single(PREFIX + haptic.world().bodyName(magnet.body(i)) + ".magnet.maxForceN", magnet.maxForceN(i),
                upToLoaded(true), force -> loop -> magnet.setMaxForceN(slot, force));
        }
    }

    private void pair(String first, double firstValue, Function<Entry, Range> firstRange, String second,
                      double secondValue, Function<Entry, Range> secondRange, PairSetter setter) {
        Entry a = new Entry(firstValue, setter);
        Entry b = new Entry(secondValue, (mine, partners) -> setter.command(partners, mine));
        a.partner = b;
        a.range = firstRange;
        b.partner = a;
        b.range = secondRange;
        entries.put(first, a);
        entries.put(second, b);
    }

    /** The loop command that sets a number of its own. */
    @FunctionalInterface
    private interface SingleSetter {
        LoopCommand command(double value);
    }

    private Entry single(String name, double loaded, Function<Entry, Range> range, SingleSetter setter) {
        Entry e = new Entry(loaded, (mine, none) -> setter.command(mine));
        e.range = range;
        entries.put(name, e);
        return e;
    }

    /** Whether {@code name} is one of the scene's parameters. */
    public boolean has(String name) {
        return entries.containsKey(name);
    }

    /** The scene's parameter names: the force scale, the contact's, the coupling's, then by body and effect. */
    public List<String> names() {
        return new ArrayList<>(entries.keySet());
    }

    /** The names of the bodies' material effects alone. */
    public List<String> materialNames() {
        return entries.keySet().stream().filter(name -> name.startsWith(PREFIX)).toList();
    }

    /** Null when {@code name} may be set to {@code value}; the OUT_OF_LIMITS refusal otherwise. */
    public String refusal(String name, double value) {
        Range range = entries.get(name).range.apply(entries.get(name));
        return range.holds(value) ? null : String.format(Locale.ROOT, "OUT_OF_LIMITS: %s = %s is outside the local "
            + "limits %s", name, value, range);
    }

    /** For a texture's amplitude entry: its loaded {@code A·(2π/λ)²}, 1/m. */
    private static double loadedStiffness(Entry amplitude) {
        return amplitude.loaded * square(2.0 * Math.PI / amplitude.partner.loaded);
    }

    private static double square(double x) {
        return x * x;
    }

    /** The loop command that sets {@code name} to {@code value} (checked by {@link #refusal}), with its partner's. */
    public LoopCommand command(String name, double value) {
        Entry e = entries.get(name);
        return e.setter.command(value, e.partner == null ? 0.0 : e.partner.value);
    }

    /** Each parameter with its value and its limits now (a grating's depend on its partner's current value). */
    public List<SettableParameter> settable() {
        List<SettableParameter> list = new ArrayList<>(entries.size());
        for (Map.Entry<String, Entry> named : entries.entrySet()) {
            Entry e = named.getValue();
            Range range = e.range.apply(e);
            list.add(new SettableParameter(named.getKey(), e.value, e.loaded, range.low(), range.lowIncluded(),
                range.high(), false, range.why()));
        }
        return list;
    }

    /** Records that {@code name} was set to {@code value} (its command accepted). */
    public void accepted(String name, double value) {
        entries.get(name).value = value;
    }

    /** The value {@code name} has now: the loaded one, or the last accepted. */
    public double value(String name) {
        return entries.get(name).value;
    }
}
