package org.hapticsd.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleConsumer;
import java.util.function.Function;
import org.hapticsd.server.loop.LoopCommand;
import org.hapticsd.server.net.SettableParameter;
import org.hapticsd.server.render.BodyViscosity;
import org.hapticsd.server.render.ContactVibration;
import org.hapticsd.server.render.GratingTexture;
import org.hapticsd.server.render.HapticScene;
import org.hapticsd.server.render.StickSlip;
import org.hapticsd.server.render.SurfaceMagnet;
import org.hapticsd.server.scene.BuiltScene;

/**
 * The current scene's material effects as a stream client's SET_PARAMETER names them, {@code bodies.NAME.FIELD}
 * (a psychophysics run changes a grating's amplitude or a vibration's frequency between trials without reloading the
 * scene): the values the scene was loaded with, those set since, and the loop commands that set them. The limits
 * follow the server's rule, a remote user may only soften what the scene file sets, as each effect is judged by the
 * passivity and rating checks: an amplitude, a force, a stiffness or a damping between 0 and its loaded value; a
 * grating's amplitude and period together within its loaded stiffness {@code A·(2π/λ)²} (a longer period, or a smaller
 * amplitude); a vibration's frequency up to half the loop's rate.
 *
 * <p>Built off the loop thread from a freshly built scene, before the loop has it; used by one thread at a time (under
 * the lock of {@link ServerCommands}; a test script's runner, which sets its {@code set} steps' in timeline order).
 */
public final class MaterialParameters {
    public static final String PREFIX = "bodies.";

    /** One number of one body's effect: its loaded and current values, and how a pair of them reaches the effect. */
    private static final class Entry {
        final double loaded;
        double value;
        /** The other number of the same effect (its period for an amplitude, ...), or null. */
        Entry partner;
        /** Sets (this value, the partner's value) on the loop, in the effect's own order. */
        final PairSetter setter;
        /** Where the value may go, worked out when it is checked (a grating's depends on its partner's value). */
        Function<Entry, Range> range;

        Entry(double loaded, PairSetter setter) {
            this.loaded = loaded;
            this.value = loaded;
            this.setter = setter;
        }
    }

    /** Sets an effect's two numbers, given this entry's value and its partner's. */
    @FunctionalInterface
    private interface PairSetter {
        void set(double mine, double partners);
    }

    /** {@code [low, high]} or {@code (low, high]} (an infinite high is open), and why. */
    private record Range(double low, boolean lowIncluded, double high, String why) {
        boolean holds(double v) {
            return (lowIncluded ? v >= low : v > low) && (v <= high || high == Double.POSITIVE_INFINITY)
                && Double.isFinite(v);
        }

        @Override
        public String toString() {
            return (lowIncluded ? "[" : "(") + low + ", " + (high == Double.POSITIVE_INFINITY ? "∞)" : high + "]")
                + " (" + why + ")";
        }
    }

    /** Why a remote user's value may not go above the file's. */
    static final String SOFTEN_ONLY = "a remote user may only lower what the scene file sets";

    /** From 0 (included, or not for a spring or a period) up to the loaded value. */
    private static Function<Entry, Range> upToLoaded(boolean zeroIncluded) {
        return e -> new Range(0.0, zeroIncluded, e.loaded, SOFTEN_ONLY);
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
    private MaterialParameters() {
    }

    /** The parameters of {@code scene}'s material effects, at their loaded values. */
    public static MaterialParameters of(BuiltScene scene, int rateHz) {
        MaterialParameters p = new MaterialParameters();
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
                p.pair(name + "texture.periodM", texture.periodM(body), MaterialParameters::texturePeriod,
                    name + "texture.amplitudeM", texture.amplitudeM(body), MaterialParameters::textureAmplitude,
                    (period, amplitude) -> texture.set(body, period, amplitude));
            }
            if (vibration != null && vibration.amplitudeN(body) > 0.0) {
                Function<Entry, Range> frequency = e -> new Range(0.0, false, rateHz / 2.0,
                    "up to half the loop's rate: sampled once a tick, a faster one would alias");
                p.pair(name + "vibration.frequencyHz", vibration.frequencyHz(body), frequency,
                    name + "vibration.amplitudeN", vibration.amplitudeN(body), upToLoaded(true),
                    (hz, amplitude) -> vibration.set(body, hz, amplitude));
            }
        }
        for (int i = 0; stickSlip != null && i < stickSlip.count(); i++) {
            int body = stickSlip.body(i);
            String name = PREFIX + haptic.world().bodyName(body) + ".";
            p.pair(name + "stickSlip.stiffnessNpm", stickSlip.stiffnessNpm(i), upToLoaded(false),
                name + "stickSlip.maxForceN", stickSlip.maxForceN(i), upToLoaded(false),
                (k, force) -> stickSlip.set(body, k, force));
        }
        for (int i = 0; viscosity != null && i < viscosity.count(); i++) {
            int slot = i;
            p.single(PREFIX + haptic.world().bodyName(viscosity.body(i)) + ".viscosityNspm", viscosity.dampingNspm(i),
                b -> viscosity.setDampingNspm(slot, b));
        }
        for (int i = 0; magnet != null && i < magnet.count(); i++) {
            int slot = i;
            p.single(PREFIX + haptic.world().bodyName(magnet.body(i)) + ".magnet.maxForceN", magnet.maxForceN(i),
                force -> magnet.setMaxForceN(slot, force));
        }
        return p;
    }

    private void pair(String first, double firstValue, Function<Entry, Range> firstRange, String second,
                      double secondValue, Function<Entry, Range> secondRange, PairSetter setter) {
        Entry a = new Entry(firstValue, setter);
        Entry b = new Entry(secondValue, (mine, partners) -> setter.set(partners, mine));
        a.partner = b;
        a.range = firstRange;
        b.partner = a;
        b.range = secondRange;
        entries.put(first, a);
        entries.put(second, b);
    }

    /** A number of its own, from 0 (switched off) up to its loaded value. */
    private void single(String name, double loaded, DoubleConsumer setter) {
        Entry e = new Entry(loaded, (mine, none) -> setter.accept(mine));
        e.range = upToLoaded(true);
        entries.put(name, e);
    }

    /** Whether {@code name} is one of the current scene's parameters. */
    public boolean has(String name) {
        return entries.containsKey(name);
    }

    /** The current scene's parameter names, in body and effect order. */
    public List<String> names() {
        return new ArrayList<>(entries.keySet());
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
        double partners = e.partner == null ? 0.0 : e.partner.value;
        return loop -> e.setter.set(value, partners);
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
}
