package org.hapticsd.benchmarks.peers;

import java.util.Locale;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.StepStage;

/**
 * The broadphase of a pile as it falls: the first steps of a {@link PeerScene}, where every sphere starts at rest in
 * the air and leaves its fat box in the same steps as the others of its layer, the moment a real-time run meets
 * first (the loop starts on the scene as loaded). {@link StepProbe} times the settled pile and never sees it.
 *
 * <p>Steps {@code STEPS} of the scene from its start, {@code EPISODES} times over (each a new world, so the JIT has
 * compiled the drop by the last), and prints for the last episode the broadphase's mean and largest time per step,
 * the largest step, and every step whose broadphase took more than {@value #REPORT_ABOVE_US} µs, as
 * {@code step:broadphase/step} in µs. Step 0 registers every body (the real-time loop does it at load instead,
 * {@link PhysicsWorld#prime()}).
 *
 * <pre>
 * java -cp benchmarks/target/benchmarks.jar org.hapticsd.benchmarks.peers.DropProbe pile-200 [STEPS] [EPISODES]
 * </pre>
 */
public final class DropProbe {
    private static final int REPORT_ABOVE_US = 100;

    private DropProbe() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: DropProbe SCENE [STEPS] [EPISODES]");
            System.exit(2);
        }
        PeerScene scene = PeerScene.named(args[0]);
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        int episodes = args.length > 2 ? Integer.parseInt(args[2]) : 30;
        long[] broadphaseNs = new long[steps];
        long[] stepNs = new long[steps];
        for (int episode = 0; episode < episodes; episode++) {
            OursEngine engine = new OursEngine(scene);
            PhysicsWorld world = engine.world();
            for (int s = 0; s < steps; s++) {
                engine.step();
                broadphaseNs[s] = world.profile().lastNs(StepStage.BROADPHASE);
                stepNs[s] = world.profile().lastTotalNs();
            }
            engine.close();
        }
        long sumNs = 0;
        long maxNs = 0;
        long maxStepNs = 0;
        StringBuilder slow = new StringBuilder();
        for (int s = 0; s < steps; s++) {
            sumNs += broadphaseNs[s];
            maxNs = Math.max(maxNs, broadphaseNs[s]);
            maxStepNs = Math.max(maxStepNs, stepNs[s]);
            if (broadphaseNs[s] > REPORT_ABOVE_US * 1_000L) {
                slow.append(' ').append(s).append(':').append(broadphaseNs[s] / 1_000).append('/')
                    .append(stepNs[s] / 1_000);
            }
        }
        System.out.printf(Locale.ROOT, "%s, %d steps, episode %d: broadphase mean %.1f us, max %.1f us; step max %.1f us%n",
            args[0], steps, episodes, sumNs / 1e3 / steps, maxNs / 1e3, maxStepNs / 1e3);
        System.out.println("steps with the broadphase over " + REPORT_ABOVE_US + " us (step:broadphase/step, us):"
            + slow);
    }
}
