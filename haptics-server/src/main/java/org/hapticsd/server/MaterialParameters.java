package org.hapticsd.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.hapticsd.server.loop.LoopCommand;
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
        final String field;
        final double loaded;
        double value;
        /** The other number of the same effect (its period for an amplitude, ...), or null. */
        Entry partner;
        /** Sets (this value, the partner's value) on the loop, in the effect's own order. */
        final PairSetter setter;

        Entry(String field, double loaded, PairSetter setter) {
            this.field = field;
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

    private final Map<String, Entry> entries = new LinkedHashMap<>();
    private final int rateHz;

    private MaterialParameters(int rateHz) {
        this.rateHz = rateHz;
    }

    /** The parameters of {@code scene}'s material effects, at their loaded values. */
    public static MaterialParameters of(BuiltScene scene, int rateHz) {
        MaterialParameters p = new MaterialParameters(rateHz);
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
                p.pair(name + "texture.periodM", texture.periodM(body), name + "texture.amplitudeM",
                    texture.amplitudeM(body), (period, amplitude) -> texture.set(body, period, amplitude));
            }
            if (vibration != null && vibration.amplitudeN(body) > 0.0) {
                p.pair(name + "vibration.frequencyHz", vibration.frequencyHz(body), name + "vibration.amplitudeN",
                    vibration.amplitudeN(body), (frequency, amplitude) -> vibration.set(body, frequency, amplitude));
            }
        }
        for (int i = 0; stickSlip != null && i < stickSlip.count(); i++) {
            int body = stickSlip.body(i);
            String name = PREFIX + haptic.world().bodyName(body) + ".";
            p.pair(name + "stickSlip.stiffnessNpm", stickSlip.stiffnessNpm(i), name + "stickSlip.maxForceN",
                stickSlip.maxForceN(i), (k, force) -> stickSlip.set(body, k, force));
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

    private void pair(String first, double firstValue, String second, double secondValue, PairSetter setter) {
        Entry a = new Entry(first, firstValue, setter);
        Entry b = new Entry(second, secondValue, (mine, partners) -> setter.set(partners, mine));
        a.partner = b;
        b.partner = a;
        entries.put(first, a);
        entries.put(second, b);
    }

    private void single(String name, double loaded, java.util.function.DoubleConsumer setter) {
        entries.put(name, new Entry(name, loaded, (mine, none) -> setter.accept(mine)));
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
        Entry e = entries.get(name);
        String field = name.substring(name.lastIndexOf('.') + 1);
        double low = 0.0;
        double high = e.loaded;
        boolean zeroAllowed = field.equals("viscosityNspm") || field.equals("amplitudeN")
            || name.endsWith("magnet.maxForceN");
        String why = "a remote user may only lower what the scene file sets";
        if (name.endsWith("vibration.frequencyHz")) {
            high = rateHz / 2.0;
            zeroAllowed = false;
            why = "up to half the loop's rate: sampled once a tick, a faster one would alias";
        } else if (name.endsWith("texture.amplitudeM")) {
            // A·(2π/λ)² at most its loaded value, with the current period.
            high = loadedStiffness(e) / square(2.0 * Math.PI / e.partner.value);
            why = "within the grating's loaded stiffness A·(2π/λ)² at the current period; " + why;
        } else if (name.endsWith("texture.periodM")) {
            low = 2.0 * Math.PI * Math.sqrt(e.partner.value / loadedStiffness(e.partner));
            high = Double.POSITIVE_INFINITY;
            boolean inside = value >= low && Double.isFinite(value);
            return inside ? null : String.format(Locale.ROOT, "OUT_OF_LIMITS: %s = %s is outside the local limits [%s, "
                + "∞) (within the grating's loaded stiffness A·(2π/λ)² at the current amplitude; a remote user may "
                + "only lower what the scene file sets)", name, value, low);
        }
        boolean inside = (zeroAllowed ? value >= low : value > low) && value <= high;
        if (inside) {
            return null;
        }
        return String.format(Locale.ROOT, "OUT_OF_LIMITS: %s = %s is outside the local limits %s%s, %s] (%s)", name,
            value, zeroAllowed ? "[" : "(", low, high, why);
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

    /** Records that {@code name} was set to {@code value} (its command accepted). */
    public void accepted(String name, double value) {
        entries.get(name).value = value;
    }
}
