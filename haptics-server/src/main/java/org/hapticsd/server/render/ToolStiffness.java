package org.hapticsd.server.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;

/**
 * Whether the spring the tool's penalty contacts render can be felt stably on the device that will render it: the
 * two checks a scene is written against (docs/scenes.md, section 4, "Choosing contact stiffness and damping"), made
 * once the device, its damping and nominal stiffness (the scene's {@code device:} for the simulated stylus, the INFO
 * of a device on a link) and the loop rate are known.
 *
 * <ul>
 *   <li><b>Passivity</b> (Colgate and Schenkel 1997, {@link PenaltyContactSettings#isPassiveFor}): the device stays
 *       passive while {@code b > K·T/2 + B}, with {@code b} its damping, {@code T} the loop period, and {@code K},
 *       {@code B} the stiffness and damping felt at the handle. The mapping's scale {@code s} makes those
 *       {@code s²·k} and {@code s²·b_contact} ({@link DeviceMapping}).</li>
 *   <li><b>The device's own rating:</b> {@code K} at most its nominal stable stiffness
 *       ({@link DeviceInfo#maxStiffnessNpm()}).</li>
 * </ul>
 * Either failing is a warning, not a refusal: the force stays within the safety layer's ceiling whatever the spring,
 * a user's grip adds damping the check cannot count on, and a researcher may mean to study exactly that edge. What
 * the warning buys is that a wall that buzzes was announced, with the numbers to change. The check reads only the
 * scene-wide spring: a tool whose contacts are all LCP or IMPULSE renders no spring and gets no warning (the
 * scenes document says why such a tool is bounded by no stiffness at all).
 */
public final class ToolStiffness {

    private ToolStiffness() {
    }

    /**
     * The warnings for {@code scene} on {@code device} at {@code rateHz}, each one line naming the scene, the
     * device, the numbers and what to change; empty when the tool has no penalty contact or both checks pass.
     */
    public static List<String> warnings(String sceneName, HapticScene scene, DeviceInfo device, int rateHz) {
        List<String> warnings = new ArrayList<>(2);
        if (!hasPenaltyContact(scene.world(), scene.toolBody())) {
            return warnings;
        }
        PenaltyContactSettings spring = scene.world().contactSettings().penalty();
        double s2 = scene.mapping().scale() * scene.mapping().scale();
        double feltStiffnessNpm = s2 * spring.stiffnessNpm();
        double feltDampingNspm = s2 * spring.dampingNspm();
        double periodS = 1.0 / rateHz;
        double spentNspm = feltStiffnessNpm * periodS / 2.0 + feltDampingNspm;
        String felt = scene.mapping().scale() == 1.0 ? "" : " (mapping.scale² × the contact values)";
        if (!(device.dampingNspm() > spentNspm)) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': the tool's penalty contacts are not passive on device '%s': K·T/2 + B = %s N·s/m "
                    + "(K = %s N/m, B = %s N·s/m%s, T = 1/%d s) is not below the device's damping %s N·s/m, so a "
                    + "wall may buzz; lower contact.stiffnessNpm or contact.dampingNspm (at most %s N/m without "
                    + "damping), or raise rateHz (docs/scenes.md, \"Passivity bound\")",
                sceneName, device.name(), number(spentNspm), number(feltStiffnessNpm), number(feltDampingNspm), felt,
                rateHz, number(device.dampingNspm()),
                number(PenaltyContactSettings.maxPassiveStiffnessNpm(device.dampingNspm(), periodS) / s2)));
        }
        if (feltStiffnessNpm > device.maxStiffnessNpm()) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': the tool's penalty contacts render %s N/m%s, above device '%s''s nominal stable "
                    + "stiffness %s N/m; lower contact.stiffnessNpm to at most %s N/m",
                sceneName, number(feltStiffnessNpm), felt, device.name(), number(device.maxStiffnessNpm()),
                number(device.maxStiffnessNpm() / s2)));
        }
        return warnings;
    }

    /** Whether some body meets the tool in {@link ContactMode#PENALTY} (the tool against a static body always does). */
    private static boolean hasPenaltyContact(PhysicsWorld world, int tool) {
        for (int body = 0; body < world.bodyCount(); body++) {
            if (body != tool && world.contactMode(tool, body) == ContactMode.PENALTY) {
                return true;
            }
        }
        return false;
    }

    /** Four significant digits, without a trailing ".0" for whole numbers (1000, 0.7, 2.5e+09). */
    private static String number(double value) {
        String s = String.format(Locale.ROOT, "%.4g", value);
        if (s.contains("e")) {
            return s.replaceFirst("\\.?0+e", "e");
        }
        return s.contains(".") ? s.replaceFirst("\\.?0+$", "") : s;
    }
}
