package org.hapticsd.server.render;

import static org.hapticsd.server.render.Numbers.significant;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;

/**
 * Whether the springs the tool renders can be felt stably on the device that will render them: the two checks a
 * scene is written against (docs/scenes.md, section 4, "Choosing contact stiffness and damping"), made once the
 * device, its damping and nominal stiffness (the scene's {@code device:} for the simulated stylus, the INFO of a
 * device on a link) and the loop rate are known.
 *
 * <ul>
 *   <li><b>Passivity</b> (Colgate and Schenkel 1997, {@link PenaltyContactSettings#isPassiveFor}): the device stays
 *       passive while {@code b > K·T/2 + B}, with {@code b} its damping, {@code T} the loop period, and {@code K},
 *       {@code B} the stiffness and damping felt at the handle. The mapping's scale {@code s} makes those
 *       {@code s²·k} and {@code s²·b_spring} ({@link DeviceMapping}).</li>
 *   <li><b>The device's own rating:</b> {@code K} at most its nominal stable stiffness
 *       ({@link DeviceInfo#maxStiffnessNpm()}).</li>
 * </ul>
 * The springs checked, each on its own: the scene-wide penalty contact when the tool meets some body in
 * {@link ContactMode#PENALTY}; each deformable body's node coupling when the tool touches nodes (its own contact
 * mode is not NONE); the tool's hold of a node from the start ({@code heldByTool}); and each button grab
 * ({@code grab}). A spring of each kind is checked alone: several nodes under the tool at once add their springs, so
 * a coupling that passes may still buzz under a broad press (the warning cannot know how many nodes a press meets).
 *
 * <p>Either check failing is a warning, not a refusal: the force stays within the safety layer's ceiling whatever
 * the spring, a user's grip adds damping the check cannot count on, and a researcher may mean to study exactly that
 * edge. What the warning buys is that a wall that buzzes was announced, with the numbers to change. A tool whose
 * contacts are all LCP or IMPULSE renders no contact spring and gets no contact warning (the scenes document says
 * why such a tool is bounded by no stiffness at all).
 */
public final class ToolStiffness {

    private ToolStiffness() {
    }

    /**
     * The warnings for {@code scene} on {@code device} at {@code rateHz}, each one line naming the scene, the
     * spring, the device, the numbers and what to change; empty when every spring the tool renders passes both checks.
     */
    public static List<String> warnings(String sceneName, HapticScene scene, DeviceInfo device, int rateHz) {
        List<String> warnings = new ArrayList<>(2);
        VirtualCoupling coupling = scene.coupling();
        if (coupling != null) {
            // The hand feels the coupling and nothing stiffer, whatever the proxy meets or holds (Adams and
            // Hannaford 1999): it is the one spring to judge, with the field and the guide that act on the hand.
            check(warnings, sceneName, scene, device, rateHz, new Spring("the tool's coupling", false,
                "tool.coupling.stiffnessNpm", "tool.coupling.dampingNspm", coupling.stiffnessNpm(),
                coupling.dampingNspm()));
            handSprings(warnings, sceneName, scene, device, rateHz);
            return warnings;
        }
        PhysicsWorld world = scene.world();
        int tool = scene.toolBody();
        // A proxy renders the same spring against the bodies it meets (the tool's own contacts with them are off).
        boolean contacts = hasPenaltyContact(world, tool);
        if (contacts || scene.proxy() != null && scene.proxy().obstacleCount() > 0) {
            PenaltyContactSettings spring = world.contactSettings().penalty();
            String subject = contacts ? "the tool's penalty contacts" : "the tool's proxy spring";
            check(warnings, sceneName, scene, device, rateHz, new Spring(subject, contacts,
                "contact.stiffnessNpm", "contact.dampingNspm", spring.stiffnessNpm(), spring.dampingNspm()));
        }
        for (int d = 0; d < world.deformableCount(); d++) {
            String name = world.deformable(d).name();
            if (world.touchesDeformableNodes(tool)) {
                check(warnings, sceneName, scene, device, rateHz, new Spring(
                    "deformable '" + name + "''s coupling of a node to the tool", false,
                    field(d, "couplingStiffnessNpm"), field(d, "couplingDampingNspm"),
                    world.deformableCouplingStiffnessNpm(d),
                    world.deformableCouplingDampingNspm(d)));
            }
            if (world.deformableHolder(d) == tool) {
                check(warnings, sceneName, scene, device, rateHz, new Spring(
                    "the tool's hold on deformable '" + name + "'", false, field(d, "heldByTool.stiffnessNpm"),
                    field(d, "heldByTool.dampingNspm"), world.heldDeformableStiffnessNpm(d),
                    world.heldDeformableDampingNspm(d)));
            }
        }
        ToolGrasps grasps = scene.grasps();
        for (int g = 0; g < grasps.count(); g++) {
            int d = grasps.deformable(g);
            check(warnings, sceneName, scene, device, rateHz, new Spring(
                "the grab of deformable '" + world.deformable(d).name() + "'", false, field(d, "grab.stiffnessNpm"),
                field(d, "grab.dampingNspm"), grasps.stiffnessNpm(g), grasps.dampingNspm(g)));
        }
        handSprings(warnings, sceneName, scene, device, rateHz);
        for (int g = 0; g < grasps.rigidCount(); g++) {
            check(warnings, sceneName, scene, device, rateHz, new Spring(
                "the grab of body '" + world.bodyName(grasps.rigidBody(g)) + "'", false,
                grasps.rigidField(g) + ".grab.stiffnessNpm", grasps.rigidField(g) + ".grab.dampingNspm",
                grasps.rigidStiffnessNpm(g), grasps.rigidDampingNspm(g)));
        }
        return warnings;
    }

    /**
     * The warnings of what acts on the hand directly, whatever the tool: the guide, the force field and the bodies'
     * magnets, stick-slip surfaces, textures and viscosities.
     */
    private static void handSprings(List<String> warnings, String sceneName, HapticScene scene, DeviceInfo device,
                                    int rateHz) {
        SurfaceMagnet magnet = scene.effect(SurfaceMagnet.class);
        Guide guide = scene.effect(Guide.class);
        ForceField field = scene.effect(ForceField.class);
        for (int i = 0; magnet != null && i < magnet.count(); i++) {
            undampedSpringWarnings(warnings, sceneName, scene, device, rateHz, new UndampedSpring(
                "the magnet of body '" + scene.world().bodyName(magnet.body(i)) + "'", "pulls with",
                "2·maxForceN/distanceM", "near it", "lower its material.magnet.maxForceN or lengthen its distanceM",
                magnet.stiffnessNpm(i)));
        }
        StickSlip stickSlip = scene.effect(StickSlip.class);
        for (int i = 0; stickSlip != null && i < stickSlip.count(); i++) {
            undampedSpringWarnings(warnings, sceneName, scene, device, rateHz, new UndampedSpring(
                "the stick-slip of body '" + scene.world().bodyName(stickSlip.body(i)) + "'", "holds with",
                "stickSlip.stiffnessNpm", "on it", "lower its material.stickSlip.stiffnessNpm",
                stickSlip.stiffnessNpm(i)));
        }
        GratingTexture texture = scene.effect(GratingTexture.class);
        for (int i = 0; texture != null && i < texture.count(); i++) {
            // The lateral force's slope grows with the press: judged at the device's largest force.
            undampedSpringWarnings(warnings, sceneName, scene, device, rateHz, new UndampedSpring(
                "the texture of body '" + scene.world().bodyName(texture.body(i)) + "'", "renders up to",
                "the device's maxForceN·amplitudeM·(2π/periodM)²", "on it",
                "lengthen its material.texture.periodM or lower its amplitudeM",
                device.maxForceN() * texture.stiffnessPerNewton(i)));
        }
        if (guide != null) {
            check(warnings, sceneName, scene, device, rateHz, new Spring("the guide", false, "guide.stiffnessNpm",
                "guide.dampingNspm", guide.stiffnessNpm(), guide.dampingNspm()));
        }
        if (field != null) {
            damperWarning(warnings, sceneName, scene, device, rateHz, "the force field renders up to", field
                .largestDampingNspm(), " in some direction", "lower forceField's values");
        }
        BodyViscosity viscosity = scene.effect(BodyViscosity.class);
        for (int i = 0; viscosity != null && i < viscosity.count(); i++) {
            damperWarning(warnings, sceneName, scene, device, rateHz, "the viscosity of body '"
                + scene.world().bodyName(viscosity.body(i)) + "' renders", viscosity.dampingNspm(i), "",
                "lower its material.viscosityNspm");
        }
    }

    /**
     * A damper on the hand, B: passive, sampled, while B is below the device's damping (the bound K·T/2 + B < b with
     * K = 0).
     */
    private static void damperWarning(List<String> warnings, String sceneName, HapticScene scene, DeviceInfo device,
                                      int rateHz, String renders, double dampingNspm, String where, String change) {
        double s2 = scene.mapping().scale() * scene.mapping().scale();
        double feltNspm = s2 * dampingNspm;
        if (!(device.dampingNspm() > feltNspm)) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': %s B = %s N·s/m%s%s, not below device '%s''s damping %s N·s/m: sampled at 1/%d s it "
                    + "is not passive by the bound K·T/2 + B < b (K = 0), so the handle may buzz in fast moves; %s "
                    + "or use a device with more damping (docs/scenes.md, \"Passivity bound\")",
                sceneName, renders, significant(feltNspm), scene.mapping().scale() == 1.0 ? ""
                    : " (mapping.scale² × the scene's values)", where, device.name(),
                significant(device.dampingNspm()), rateHz, change));
        }
    }

    /**
     * A spring on the hand without damping, K (a magnet on its rising half, a stick-slip): what it is, how it acts
     * ("pulls with"), what K is made of, where the handle may buzz, and what to change.
     */
    private record UndampedSpring(String subject, String acts, String stiffnessText, String where, String change,
                                  double stiffnessNpm) {
    }

    /** Passive while K·T/2 is below the device's damping, and within the device's rating. */
    private static void undampedSpringWarnings(List<String> warnings, String sceneName, HapticScene scene,
                                               DeviceInfo device, int rateHz, UndampedSpring spring) {
        double s2 = scene.mapping().scale() * scene.mapping().scale();
        double feltNpm = s2 * spring.stiffnessNpm();
        double periodS = 1.0 / rateHz;
        String felt = scene.mapping().scale() == 1.0 ? "" : " (mapping.scale² × the scene's values)";
        if (!(device.dampingNspm() > feltNpm * periodS / 2.0)) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': %s is not passive on device '%s': K·T/2 = %s N·s/m (K = %s = %s N/m%s, T = 1/%d s) is "
                    + "not below the device's damping %s N·s/m, so the handle may buzz %s; %s, to a K of at most "
                    + "%s N/m (docs/scenes.md, \"Passivity bound\")",
                sceneName, spring.subject(), device.name(), significant(feltNpm * periodS / 2.0),
                spring.stiffnessText(), significant(feltNpm), felt, rateHz, significant(device.dampingNspm()),
                spring.where(), spring.change(),
                significant(PenaltyContactSettings.maxPassiveStiffnessNpm(device.dampingNspm(), periodS) / s2)));
        }
        if (feltNpm > device.maxStiffnessNpm()) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': %s %s K = %s = %s N/m%s, above device '%s''s nominal stable stiffness %s N/m; %s",
                sceneName, spring.subject(), spring.acts(), spring.stiffnessText(), significant(feltNpm), felt,
                device.name(), significant(device.maxStiffnessNpm()), spring.change()));
        }
    }

    /** A field of the scene's deformable body {@code index} (the world adds them in the file's order). */
    private static String field(int index, String name) {
        return "deformables[" + index + "]." + name;
    }

    /**
     * A spring the tool renders: what to call it ({@code plural} for "are"), the scene fields that set it, and its
     * values in the scene's units.
     */
    private record Spring(String subject, boolean plural, String stiffnessField, String dampingField,
                          double stiffnessNpm, double dampingNspm) {
    }

    /** Adds the passivity and rating warnings {@code spring} earns on {@code device} at {@code rateHz}. */
    private static void check(List<String> warnings, String sceneName, HapticScene scene, DeviceInfo device,
                              int rateHz, Spring spring) {
        double s2 = scene.mapping().scale() * scene.mapping().scale();
        double feltStiffnessNpm = s2 * spring.stiffnessNpm();
        double feltDampingNspm = s2 * spring.dampingNspm();
        double periodS = 1.0 / rateHz;
        double spentNspm = feltStiffnessNpm * periodS / 2.0 + feltDampingNspm;
        String felt = scene.mapping().scale() == 1.0 ? "" : " (mapping.scale² × the scene's values)";
        if (!(device.dampingNspm() > spentNspm)) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': %s %s not passive on device '%s': K·T/2 + B = %s N·s/m "
                    + "(K = %s N/m, B = %s N·s/m%s, T = 1/%d s) is not below the device's damping %s N·s/m, so the "
                    + "handle may buzz; lower %s or %s (at most %s N/m without damping), or raise rateHz "
                    + "(docs/scenes.md, \"Passivity bound\")",
                sceneName, spring.subject(), spring.plural() ? "are" : "is", device.name(), significant(spentNspm),
                significant(feltStiffnessNpm), significant(feltDampingNspm), felt, rateHz,
                significant(device.dampingNspm()), spring.stiffnessField(), spring.dampingField(),
                significant(PenaltyContactSettings.maxPassiveStiffnessNpm(device.dampingNspm(), periodS) / s2)));
        }
        if (feltStiffnessNpm > device.maxStiffnessNpm()) {
            warnings.add(String.format(Locale.ROOT,
                "scene '%s': %s %s %s N/m%s, above device '%s''s nominal stable stiffness %s N/m; lower %s to at "
                    + "most %s N/m",
                sceneName, spring.subject(), spring.plural() ? "render" : "renders", significant(feltStiffnessNpm),
                felt, device.name(), significant(device.maxStiffnessNpm()), spring.stiffnessField(),
                significant(device.maxStiffnessNpm() / s2)));
        }
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
}
