package org.hapticsd.server.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneException;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;

/**
 * The tool-stiffness warnings on the default scene ({@code wall.yaml}: contact k = 1000 N/m, B = 0.2 N·s/m; device
 * b = 1 N·s/m, nominal 3000 N/m; 1 kHz), edited one value at a time. The passivity condition is
 * {@code b > s²·k·T/2 + s²·B}; the numbers below are worked out in each test's comment.
 */
class ToolStiffnessTest {

    @Test
    void shouldStayQuietForTheDefaultScene() throws Exception {
        // 1000·0.001/2 + 0.2 = 0.7 < 1, and 1000 <= 3000.
        BuiltScene scene = scene(defaultText());
        assertEquals(List.of(), warnings(scene, simulatedInfo(scene), 1000));
    }

    @Test
    void shouldNameBothBoundsForAWallFarTooStiff() throws Exception {
        // 1e6·0.001/2 + 0.2 = 500.2 >= 1; 1e6 > 3000.
        BuiltScene scene = scene(defaultText().replace("stiffnessNpm: 1000.0", "stiffnessNpm: 1000000.0"));
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(2, warnings.size(), warnings.toString());
        String passivity = warnings.get(0);
        assertTrue(passivity.contains("scene 'wall'") && passivity.contains("device 'simulated stylus'"), passivity);
        assertTrue(passivity.contains("K·T/2 + B = 500.2 N·s/m"), passivity);
        assertTrue(passivity.contains("K = 1e+06 N/m") && passivity.contains("T = 1/1000 s"), passivity);
        // 2·b/T = 2000 N/m is the most a spring without damping may be on this device at this rate.
        assertTrue(passivity.contains("damping 1 N·s/m") && passivity.contains("at most 2000 N/m"), passivity);
        String rating = warnings.get(1);
        assertTrue(rating.contains("render 1e+06 N/m") && rating.contains("nominal stable stiffness 3000 N/m"),
            rating);
    }

    @Test
    void shouldJudgeAProxysSpringAsTheContactsItReplaces() throws Exception {
        // Rendered by proxy the tool has no penalty contact left (its pairs with the wall and the box are off), but
        // the proxy's spring is the same k and B: 1e6·0.001/2 + 0.2 = 500.2 >= 1; 1e6 > 3000.
        BuiltScene scene = scene(defaultText().replace("stiffnessNpm: 1000.0", "stiffnessNpm: 1000000.0")
            .replace("  radiusM: 0.005\n", "  radiusM: 0.005\n  rendering: proxy\n"));
        assertTrue(scene.haptic().proxy() != null, "rendered by proxy");
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the tool's proxy spring is not passive")
            && warnings.get(0).contains("K·T/2 + B = 500.2 N·s/m"), warnings.get(0));
        assertTrue(warnings.get(1).contains("the tool's proxy spring renders 1e+06 N/m"), warnings.get(1));
    }

    @Test
    void shouldJudgeACouplingAloneWhateverTheProxyMeets() throws Exception {
        // Rendered by coupling the hand feels the coupling and nothing stiffer: the proxy meets the wall with a
        // penalty spring of 1e6 N/m, which loads only the proxy (its load check passes: a 1 kg proxy) and earns no
        // warning, while the coupling's 2500 N/m and 0.4 N·s/m give 2500·0.001/2 + 0.4 = 1.65 >= 1 (passivity),
        // and 2500 <= 3000 (rating).
        String coupled = defaultText().replace("stiffnessNpm: 1000.0", "stiffnessNpm: 1000000.0")
            .replace("  radiusM: 0.005\n", "  radiusM: 0.005\n  rendering: coupling\n  coupling: {stiffnessNpm: "
                + "2500.0, dampingNspm: 0.4, massKg: 1.0}\n") + "contactModes:\n  - {body: tool, mode: penalty}\n";
        BuiltScene scene = scene(coupled);
        assertTrue(scene.haptic().coupling() != null, "rendered by coupling");
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the tool's coupling is not passive")
            && warnings.get(0).contains("K·T/2 + B = 1.65 N·s/m")
            && warnings.get(0).contains("lower tool.coupling.stiffnessNpm or tool.coupling.dampingNspm"),
            warnings.get(0));
        // Its defaults (1000 N/m, 0.3 N·s/m): 0.5 + 0.3 = 0.8 < 1.
        BuiltScene defaults = scene(coupled.replace("stiffnessNpm: 2500.0, dampingNspm: 0.4, ", ""));
        assertEquals(List.of(), warnings(defaults, simulatedInfo(defaults), 1000));
    }

    @Test
    void shouldJudgeAMagnetAsASpringOfTwiceItsForceOverItsDistance() throws Exception {
        // 10 N over 5 mm: K = 2·10/0.005 = 4000 N/m, K·T/2 = 2 >= 1 (passivity) and 4000 > 3000 (rating); 1 N over
        // 10 mm, K = 200 N/m, passes both.
        String magnetic = defaultText().replace("    position: [0.03, 0.0, 0.0]\n",
            "    position: [0.03, 0.0, 0.0]\n    material: {magnet: {maxForceN: 10.0, distanceM: 0.005}}\n");
        BuiltScene scene = scene(magnetic);
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the magnet of body 'wall' is not passive on device 'simulated stylus': "
            + "K·T/2 = 2 N·s/m (K = 2·maxForceN/distanceM = 4000 N/m") && warnings.get(0).contains("to a K of at "
            + "most 2000 N/m"), warnings.get(0));
        assertTrue(warnings.get(1).contains("the magnet of body 'wall' pulls with K = 2·maxForceN/distanceM = 4000 "
            + "N/m, above device 'simulated stylus''s nominal stable stiffness 3000 N/m"), warnings.get(1));
        BuiltScene gentle = scene(magnetic.replace("maxForceN: 10.0, distanceM: 0.005", "maxForceN: 1.0, "
            + "distanceM: 0.01"));
        assertEquals(List.of(), warnings(gentle, simulatedInfo(gentle), 1000));
    }

    @Test
    void shouldJudgeAStickSlipAsASpringAndAViscosityAsADamper() throws Exception {
        // A stick-slip of 4000 N/m: K·T/2 = 2 >= 1 (passivity) and 4000 > 3000 (rating). A viscosity of 1.5 N·s/m:
        // K·T/2 + B = 1.5 >= the stylus's 1 N·s/m. 500 N/m and 0.5 N·s/m pass.
        String wall = defaultText().replace("    position: [0.03, 0.0, 0.0]\n", "    position: [0.03, 0.0, 0.0]\n"
            + "    material: {stickSlip: {stiffnessNpm: 4000.0, maxForceN: 1.0}, viscosityNspm: 1.5}\n");
        BuiltScene scene = scene(wall);
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(3, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the stick-slip of body 'wall' is not passive on device 'simulated "
            + "stylus': K·T/2 = 2 N·s/m (K = stickSlip.stiffnessNpm = 4000 N/m") && warnings.get(0).contains(
            "lower its material.stickSlip.stiffnessNpm, to a K of at most 2000 N/m"), warnings.get(0));
        assertTrue(warnings.get(1).contains("the stick-slip of body 'wall' holds with K = stickSlip.stiffnessNpm = "
            + "4000 N/m, above device 'simulated stylus''s nominal stable stiffness 3000 N/m"), warnings.get(1));
        assertTrue(warnings.get(2).contains("the viscosity of body 'wall' renders B = 1.5 N·s/m, not below device "
            + "'simulated stylus''s damping 1 N·s/m") && warnings.get(2).contains("lower its "
            + "material.viscosityNspm"), warnings.get(2));
        BuiltScene gentle = scene(wall.replace("stiffnessNpm: 4000.0", "stiffnessNpm: 500.0")
            .replace("viscosityNspm: 1.5", "viscosityNspm: 0.5"));
        assertEquals(List.of(), warnings(gentle, simulatedInfo(gentle), 1000));
    }

    @Test
    void shouldJudgeATextureAtTheDevicesLargestForce() throws Exception {
        // Period 4 mm, amplitude 0.1 mm: A·(2π/λ)² = 246.7 /m, × the stylus's 10 N = 2467 N/m: K·T/2 = 1.23 >= 1. At
        // 6 mm, 1097 N/m passes both.
        String wall = defaultText().replace("    position: [0.03, 0.0, 0.0]\n", "    position: [0.03, 0.0, 0.0]\n"
            + "    material: {texture: {periodM: 0.004, amplitudeM: 0.0001, direction: [0.0, 1.0, 0.0]}}\n");
        BuiltScene scene = scene(wall);
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the texture of body 'wall' is not passive on device 'simulated stylus': "
            + "K·T/2 = 1.234 N·s/m (K = the device's maxForceN·amplitudeM·(2π/periodM)² = 2467 N/m")
            && warnings.get(0).contains("lengthen its material.texture.periodM or lower its amplitudeM"),
            warnings.get(0));
        BuiltScene coarser = scene(wall.replace("periodM: 0.004", "periodM: 0.006"));
        assertEquals(List.of(), warnings(coarser, simulatedInfo(coarser), 1000));
    }

    @Test
    void shouldCountTheContactDampingAgainstTheDevice() throws Exception {
        // k within both bounds, but 1000·0.001/2 + 0.6 = 1.1 >= 1: the damping spends what the spring left.
        BuiltScene scene = scene(defaultText().replace("dampingNspm: 0.2", "dampingNspm: 0.6"));
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("K·T/2 + B = 1.1 N·s/m"), warnings.get(0));
    }

    @Test
    void shouldJudgeTheStiffnessFeltThroughTheMappingScale() throws Exception {
        // s = 2: K = 4·1000 = 4000 N/m, B = 0.8; 4000·0.001/2 + 0.8 = 2.8 >= 1 and 4000 > 3000. What to change is
        // said in the scene's own units: 2000 / s² = 500 N/m, 3000 / s² = 750 N/m.
        BuiltScene scene = scene(defaultText().replace("scale: 1.0", "scale: 2.0"));
        List<String> warnings = warnings(scene, simulatedInfo(scene), 1000);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("K·T/2 + B = 2.8 N·s/m") && warnings.get(0).contains("at most 500 N/m"),
            warnings.get(0));
        assertTrue(warnings.get(0).contains("mapping.scale²"), warnings.get(0));
        assertTrue(warnings.get(1).contains("render 4000 N/m") && warnings.get(1).contains("at most 750 N/m"),
            warnings.get(1));
    }

    @Test
    void shouldUseTheRateAndTheConnectedDevicesOwnFigures() throws Exception {
        // k = 2500: at 1 kHz 2500·0.0005 + 0.2 = 1.45 >= 1; at 4 kHz 2500·0.000125 + 0.2 = 0.5125 < 1.
        BuiltScene scene = scene(defaultText().replace("stiffnessNpm: 1000.0", "stiffnessNpm: 2500.0"));
        assertEquals(1, warnings(scene, simulatedInfo(scene), 1000).size());
        assertEquals(List.of(), warnings(scene, simulatedInfo(scene), 4000));
        // A device on a link reports its own damping and rating in INFO: b = 2 passes at 1 kHz (1.45 < 2), and a
        // nominal 2000 N/m is below the scene's 2500.
        DeviceInfo link = new DeviceInfo("falcon-emulated", 3, Workspace.cube(0.05), 9.0, 3.0, 2000.0, 2.0);
        List<String> warnings = warnings(scene, link, 1000);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("device 'falcon-emulated''s nominal stable stiffness 2000 N/m"),
            warnings.get(0));
    }

    @Test
    void shouldSayNothingWhenTheToolHasNoPenaltyContact() throws Exception {
        // Only a dynamic ball, met in LCP: the stiff spring renders nowhere. With the ball met in PENALTY, the same
        // spring is warned about. (1e5 N/m: 1e6 would also break the 0.1 kg ball's integration bound, k·Δt² < 4·m,
        // which the loader refuses.)
        String head = defaultText().replace("stiffnessNpm: 1000.0", "stiffnessNpm: 100000.0");
        head = head.substring(0, head.indexOf("bodies:"));
        String ball = "bodies:\n  - name: ball\n    motion: dynamic\n    shape: {type: sphere, radiusM: 0.02}\n"
            + "    position: [0.0, 0.0, -0.05]\n    massKg: 0.1\n";
        BuiltScene lcp = scene(head + "contactModes:\n  - {body: tool, mode: lcp}\n\n" + ball);
        assertEquals(List.of(), warnings(lcp, simulatedInfo(lcp), 1000));
        BuiltScene penalty = scene(head + "contactModes:\n  - {body: tool, mode: penalty}\n\n" + ball);
        assertEquals(2, warnings(penalty, simulatedInfo(penalty), 1000).size());
    }

    @Test
    void shouldStayQuietForEveryShippedSceneOnItsOwnStylus() throws Exception {
        // Each file in scenes/ on the simulated stylus its own `device:` section describes, at its own rate.
        List<Path> files;
        try (Stream<Path> listing = Files.list(Path.of("../scenes"))) {
            files = listing.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertTrue(files.size() >= 10, files.toString());
        for (Path file : files) {
            BuiltScene scene = SceneBuilder.build(new SceneLoader().load(file));
            assertEquals(List.of(), warnings(scene, simulatedInfo(scene), scene.rateHz()), file.toString());
            assertEquals(List.of(), scene.warnings(), file + ": the build's own warnings");
        }
    }

    @Test
    void shouldCheckTheClothsCouplingAndGrabLikeTheContactSpring() throws Exception {
        // scenes/cloth.yaml on a Touch-like device (b = 0.2 N·s/m, rated 400 N/m), 1 kHz. The contact spring
        // (defaults 1000 N/m, 0.2 N·s/m): 0.5 + 0.2 = 0.7 >= 0.2, 1000 > 400. The node coupling (500, 0.5):
        // 0.25 + 0.5 = 0.75 >= 0.2, 500 > 400. The button grab (200, 0.5): 0.1 + 0.5 = 0.6 >= 0.2, 200 <= 400.
        BuiltScene scene = SceneBuilder.build(new SceneLoader().load(Path.of("../scenes/cloth.yaml")));
        DeviceInfo touch = new DeviceInfo("touch-like", 3, Workspace.cube(0.08), 3.3, 0.9, 400.0, 0.2);
        List<String> warnings = warnings(scene, touch, 1000);
        assertEquals(5, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the tool's penalty contacts are not passive"), warnings.get(0));
        assertTrue(warnings.get(1).contains("the tool's penalty contacts render 1000 N/m"), warnings.get(1));
        String coupling = warnings.get(2);
        assertTrue(coupling.contains("scene 'cloth': deformable 'cloth''s coupling of a node to the tool is not "
            + "passive on device 'touch-like': K·T/2 + B = 0.75 N·s/m"), coupling);
        assertTrue(coupling.contains("lower deformables[0].couplingStiffnessNpm or deformables[0].couplingDampingNspm"
            + " (at most 400 N/m without damping)"), coupling);
        String rating = warnings.get(3);
        assertTrue(rating.contains("coupling of a node to the tool renders 500 N/m, above device 'touch-like''s "
            + "nominal stable stiffness 400 N/m; lower deformables[0].couplingStiffnessNpm to at most 400 N/m"),
            rating);
        String grab = warnings.get(4);
        assertTrue(grab.contains("the grab of deformable 'cloth' is not passive")
            && grab.contains("K·T/2 + B = 0.6 N·s/m") && grab.contains("lower deformables[0].grab.stiffnessNpm"),
            grab);
    }

    @Test
    void shouldCheckAHoldFromTheStartAndNoCouplingForAToolThatTouchesNoNode() throws Exception {
        // scenes/string-cantilever.yaml: the tool's own mode is NONE, so it meets no body and no node (the
        // coupling's default 1000 N/m would fail both checks here); it holds node 20 through 50 N/m and
        // 0.05 N·s/m: 0.025 + 0.05 = 0.075, not below a device damping of 0.05, and 50 <= 400.
        BuiltScene scene = SceneBuilder.build(new SceneLoader().load(Path.of("../scenes/string-cantilever.yaml")));
        DeviceInfo light = new DeviceInfo("light", 3, Workspace.cube(0.08), 3.3, 0.9, 400.0, 0.05);
        List<String> warnings = warnings(scene, light, 1000);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the tool's hold on deformable 'string' is not passive")
            && warnings.get(0).contains("K·T/2 + B = 0.075 N·s/m")
            && warnings.get(0).contains("lower deformables[0].heldByTool.stiffnessNpm or "
                + "deformables[0].heldByTool.dampingNspm"), warnings.get(0));
        // The same device with b = 0.1 passes it.
        DeviceInfo damped = new DeviceInfo("damped", 3, Workspace.cube(0.08), 3.3, 0.9, 400.0, 0.1);
        assertEquals(List.of(), warnings(scene, damped, 1000));
    }

    private static List<String> warnings(BuiltScene scene, DeviceInfo device, int rateHz) {
        return ToolStiffness.warnings(scene.name(), scene.haptic(), device, rateHz);
    }

    private static DeviceInfo simulatedInfo(BuiltScene scene) {
        return scene.simDevice().info();
    }

    private static BuiltScene scene(String text) throws SceneException {
        return SceneBuilder.build(new SceneLoader().parse("wall.yaml", new StringReader(text)));
    }

    private static String defaultText() throws IOException {
        try (InputStream in = SceneLoader.class.getResourceAsStream("/scenes/wall.yaml")) {
            if (in == null) {
                throw new IOException("the embedded default scene /scenes/wall.yaml is not on the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
