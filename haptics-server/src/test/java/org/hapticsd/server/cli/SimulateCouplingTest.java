package org.hapticsd.server.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tool.rendering: coupling} end to end, from the simulate CSV of {@code scenes/coupling.yaml}: the coupled
 * proxy pushes a 150 g cube along the table and the hand feels its sliding friction μ·m·g; it presses on the cube and
 * the force is the coupling's spring, steady; in free space the proxy follows the hand and renders almost nothing.
 * With the same grab as {@code scenes/grab.yaml} the hand holding the cube still feels its weight through the
 * coupling. A proxy too light for its springs is refused at load, in one line.
 */
class SimulateCouplingTest {

    private static final Path SCENE = Path.of("../scenes/coupling.yaml");
    private static final double K_NPM = 1000.0;
    private static final double CUBE_KG = 0.15;
    private static final double G_MPS2 = 9.81;

    @Test
    void theProxyPushesTheCubePressesOnItSteadilyAndFollowsTheHandInFreeSpace(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, SCENE, "coupling", "14");
        double slidingN = 0.4 * CUBE_KG * G_MPS2;
        double pressN = Double.NaN;
        for (int i = 0; i < csv.rows().size(); i++) {
            double t = csv.at(i, "t");
            if (t >= 1.8 && t < 2.8) {
                assertEquals(-slidingN, csv.at(i, "force.x"), 0.01, "pushing the cube along, t = " + t);
                // The friction at the proxy's contact with the cube face takes a few µN of vertical load.
                assertEquals(0.0, csv.at(i, "force.z"), 1e-4, "t = " + t);
            }
            if (t >= 6.0 && t < 7.0) {
                double stretchM = csv.at(i, "tool.z") - csv.at(i, "device.z");
                assertEquals(0.045, csv.at(i, "tool.z"), 1e-4, "the proxy rests on the cube's top, t = " + t);
                assertEquals(K_NPM * stretchM, csv.at(i, "force.z"), 1e-6, "the coupling's spring, t = " + t);
                if (Double.isNaN(pressN)) {
                    pressN = csv.at(i, "force.z");
                }
                assertEquals(pressN, csv.at(i, "force.z"), 1e-6, "steady within a µN, t = " + t);
            }
            if (t >= 3.7 && t < 4.4 || t >= 8.0 && t < 8.9) {
                for (String axis : new String[] {"x", "y", "z"}) {
                    assertEquals(0.0, csv.at(i, "force." + axis), 0.02, "free space, t = " + t);
                    assertEquals(csv.at(i, "device." + axis), csv.at(i, "tool." + axis), 5e-4, "t = " + t);
                }
            }
        }
        assertTrue(pressN > 0.5, "the hand pressed: " + pressN + " N");
        assertEquals(0.048, csv.at(3400, "cube.px"), 0.002, "pushed about 5 cm");
        assertEquals(0.0, csv.at(12500, "cube.px"), 0.005, "and back");
    }

    @Test
    void aCubeGrabbedThroughTheCouplingWeighsOnTheHand(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, SimulatedCsv.withRendering(dir, "grab.yaml", "coupling"),
            "grab-coupled", "4");
        for (int i = 3000; i < 4000; i++) {
            assertEquals(-CUBE_KG * G_MPS2, csv.at(i, "force.z"), 2e-3, "held still, t = " + csv.at(i, "t"));
            // The weightless proxy hangs below the hand by the weight over the coupling's spring.
            assertEquals(-CUBE_KG * G_MPS2 / K_NPM, csv.at(i, "tool.z") - csv.at(i, "device.z"), 2e-6);
        }
    }

    /**
     * SimulateGrabTest's press, through the coupling: the hand pulls the stylus 1 cm into the resting cube's top. The
     * proxy meets the cube in LCP, which an LCP tool could not (it buzzed between 0 and 8 N), and the force stands
     * still: the coupling (1000 N/m) balances the hand's spring (300 N/m), 2.31 N.
     */
    @Test
    void pressingOnTheRestingCubeThroughTheCouplingIsSteady(@TempDir Path dir) throws Exception {
        SimulatedCsv csv = SimulatedCsv.run(dir, SimulateGrabTest.pressOnTheRestingCube(dir, "coupling"), "press",
            "3");
        double restM = 0.04 + 0.005;
        // Where the two springs balance: 300·(z − 0.035) = 1000·(0.045 − z).
        double deviceZ = (300.0 * 0.035 + K_NPM * restM) / (300.0 + K_NPM);
        for (String[] row : csv.rows()) {
            double t = csv.get(row, "t");
            if (t >= 1.5) {
                assertEquals(restM, csv.get(row, "tool.z"), 1e-4, "the proxy rests on the top, t = " + t);
                assertEquals(K_NPM * (restM - deviceZ), csv.get(row, "force.z"), 0.01, "t = " + t);
                assertEquals(0.02, csv.get(row, "cube.pz"), 1e-4, "the cube stays put, t = " + t);
            }
        }
    }

    /**
     * The coupling is the spring the hand feels, so one stiffer than the device renders passively (5000 N/m against
     * 2·b/T = 2000 N/m on the simulated stylus at 1 kHz) makes the stylus bounce off the default wall as a 5000 N/m
     * contact wall does (SimulatePassivityTest), and the passivity controller rests it the same way: at the static
     * balance 5000·(x − 0.025) = 200·(0.05 − x), 4.81 N, the proxy's contact a few µm deep.
     */
    @Test
    void aCouplingStifferThanTheDeviceBouncesAndThePassivityControllerRestsIt(@TempDir Path dir) throws Exception {
        double[] bare = stiffCouplingPress(dir, false);
        double[] controlled = stiffCouplingPress(dir, true);
        assertTrue(bare[1] > 1.0, "without the controller the stylus bounces: std " + bare[1] + " N");
        assertTrue(controlled[1] < 0.01, "with it, it rests: std " + controlled[1] + " N");
        assertEquals(-5000.0 * (0.05 * 200.0 / 5200.0 + 0.025 * 5000.0 / 5200.0 - 0.025), controlled[0], 0.05);
    }

    /** force.x over 1.6–2.5 s of the default wall through a 5000 N/m coupling, no hand damping: {mean, std}. */
    private static double[] stiffCouplingPress(Path dir, boolean control) throws Exception {
        String wall = Files.readString(Path.of("../scenes/wall.yaml")).replace("  radiusM: 0.005\n",
            "  radiusM: 0.005\n  rendering: coupling\n  coupling: {stiffnessNpm: 5000.0, dampingNspm: 0.0}\n"
                + "  passivityControl: " + control + "\n");
        Path scene = Files.writeString(dir.resolve("stiff-" + control + ".yaml"), wall);
        Path csv = dir.resolve("stiff-" + control + ".csv");
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(new StringWriter()), new PrintWriter(err),
            "simulate", "--scene", scene.toString(), "--duration", "2.6", "--hand-damping", "0", "--out",
            csv.toString());
        assertEquals(0, code, err.toString());
        return SimulatedCsv.read(csv).meanAndStd("force.x", 1.6, 2.5);
    }

    @Test
    void aProxyTooLightForItsSpringsIsRefusedInOneLine(@TempDir Path dir) throws Exception {
        String text = Files.readString(SCENE);
        Path light = Files.writeString(dir.resolve("light.yaml"), text.replace("massKg: 0.002}", "massKg: 0.0003}"));
        // (1000·1e-6 + 2·0.3·1e-3)/4 = 0.0004 kg.
        String refusal = SimulatedCsv.refusal(dir, light);
        assertTrue(refusal.contains("light.yaml:40:13: tool.coupling: the proxy of 0.0003 kg is unstable at 1000 Hz "
            + "under the coupling's 1000 N/m and 0.3 N·s/m together: k·Δt² + 2·b·Δt < 4·m needs m above 0.0004 kg; "
            + "raise tool.coupling.massKg or soften those springs"), refusal);
        String cloth = Files.readString(Path.of("../scenes/cloth.yaml"));
        assertTrue(!cloth.contains("\ntool:"), "the cloth scene has the default tool");
        Path withDeformable = Files.writeString(dir.resolve("cloth-coupled.yaml"),
            cloth + "tool: {rendering: coupling}\n");
        String deformable = SimulatedCsv.refusal(dir, withDeformable);
        assertTrue(deformable.contains("deformables[0] (cloth): a tool rendered by coupling does not meet deformable "
            + "bodies in this version"), deformable);
    }
}
