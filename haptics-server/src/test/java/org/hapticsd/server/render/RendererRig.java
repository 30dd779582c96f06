package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.hapticsd.physics.Contact;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.hapticsd.server.scene.ToolSpec;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A scene's renderer and effects driven tick by tick as the loop's render stage drives them, without the device, the
 * safety layer or the loop: the hand set, {@link ForceRenderer#beforeStep}, the step, {@link ForceRenderer#afterStep},
 * the passive effects, the passivity filter when the scene has it, then the active effects. For scenes whose mapping
 * is the identity (the default scene's), so the scene frame is the device's.
 */
final class RendererRig {
    static final double DT_S = 0.001;

    final HapticScene scene;
    final RenderContext ctx = new RenderContext();
    /** The force on the hand of the last tick. */
    final Vector3d forceN = new Vector3d();
    private final Vector3d activeN = new Vector3d();
    private double timeS;

    RendererRig(String sceneText) throws Exception {
        scene = SceneBuilder.build(new SceneLoader().parse("wall.yaml", new StringReader(sceneText))).haptic();
        ctx.bind(scene.world(), scene.toolBody(), scene.renderer());
    }

    /** The default scene's text ({@code scenes/wall.yaml}: the wall x > 0.03 m, a 5 mm tool, 1000 N/m). */
    static String defaultScene() throws Exception {
        return new String(SceneLoader.class.getResourceAsStream("/scenes/wall.yaml").readAllBytes(),
            StandardCharsets.UTF_8);
    }

    /**
     * The default scene rendered by {@code mode}, its wall's spring {@code stiffnessNpm} (the contact's, which the
     * god-object also renders, and the coupling's), with or without the passivity observer and controller.
     */
    static String wallScene(ToolSpec.Rendering mode, double stiffnessNpm, boolean passivity) throws Exception {
        String rendering = mode.name().toLowerCase(Locale.ROOT);
        String tool = "  radiusM: 0.005\n  rendering: " + rendering + "\n  passivityControl: " + passivity + "\n";
        if (mode == ToolSpec.Rendering.COUPLING) {
            tool += "  coupling: {stiffnessNpm: " + stiffnessNpm + ", dampingNspm: 0.3, massKg: 0.002}\n";
        }
        String text = defaultScene().replace("  radiusM: 0.005\n", tool)
            .replace("contact:\n  stiffnessNpm: 1000.0\n", "contact:\n  stiffnessNpm: " + stiffnessNpm + "\n");
        assertTrue(text.contains("rendering: " + rendering) && text.contains("stiffnessNpm: " + stiffnessNpm),
            "the scene renders by " + rendering + " at " + stiffnessNpm + " N/m");
        return text;
    }

    /** {@code sceneText} (the default scene or one made from it) with {@code material}, a YAML mapping, on its wall. */
    static String withWallMaterial(String sceneText, String material) {
        String changed = sceneText.replace("    position: [0.03, 0.0, 0.0]\n",
            "    position: [0.03, 0.0, 0.0]\n    material: " + material + "\n");
        assertTrue(changed.contains("material: " + material), "the wall's material changed");
        return changed;
    }

    /** One tick with the hand at {@code x} moving at {@code v}: the force on the hand ({@link #forceN}). */
    Vector3d tick(Vector3dc x, Vector3dc v) {
        ctx.setHand(x, v, true, DT_S, timeS);
        scene.renderer().beforeStep(ctx);
        scene.world().step(DT_S);
        scene.renderer().afterStep(ctx, scene.transients(), forceN);
        activeN.zero();
        for (HapticEffect effect : scene.effects()) {
            effect.addTo(ctx, effect.active() ? activeN : forceN);
        }
        PassivityController pc = scene.passivity();
        if (pc != null) {
            pc.filter(DT_S, v.x(), v.y(), v.z(), forceN);
            pc.commanded(forceN.x, forceN.y, forceN.z);
        }
        forceN.add(activeN);
        timeS += DT_S;
        return forceN;
    }

    /** Whether the tool touches a body after the last step: a world contact of the tool body, or the proxy's. */
    boolean toolTouches() {
        int tool = scene.toolBody();
        for (int i = 0; i < scene.world().contactCount(); i++) {
            Contact c = scene.world().contact(i);
            if (c.bodyA() == tool || c.bodyB() == tool) {
                return true;
            }
        }
        return scene.proxy() != null && scene.proxy().touching();
    }

    /** How hard the bodies press the tool along their normals after the last step, N: its points, or the proxy's. */
    double toolNormalForceN() {
        int tool = scene.toolBody();
        double sum = 0.0;
        for (int i = 0; i < scene.world().contactCount(); i++) {
            Contact c = scene.world().contact(i);
            if (c.bodyA() == tool || c.bodyB() == tool) {
                sum += c.normalForceN();
            }
        }
        ProxyRenderer proxy = scene.proxy();
        return proxy != null && proxy.touching() ? sum + proxy.forceN().dot(proxy.normal()) : sum;
    }
}
