package org.hapticsd.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.TickSink;
import org.hapticsd.server.net.EventLog;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;

class JitWarmUpTest {

    @Test
    void shouldRunEveryTickAskedForWhenTheTimeBoundsAreNotReached() throws Exception {
        long ticks = JitWarmUp.run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1000, 2_000, true,
            Long.MAX_VALUE, Long.MAX_VALUE);
        // The runner thread keeps ticking until it is closed, so it may run a little past its target.
        assertTrue(ticks >= 2_000 + JitWarmUp.RUNNER_TICKS, "ticks run: " + ticks);
    }

    @Test
    void shouldStopBothPhasesAtTheirTimeBoundsSoThatAHeavySceneDoesNotDelayTheStartForAMinute() throws Exception {
        // Bounds of 0: the direct phase stops after its first tick, the runner phase as soon as it has started.
        // Without the bounds this asks for 40,000 + 20,000 ticks; the runner thread may tick a few hundred
        // times (simulated time, microseconds each) between its start and its close.
        long ticks = JitWarmUp.run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1000,
            JitWarmUp.DEFAULT_TICKS, false, 0, 0);
        assertTrue(ticks >= 1 && ticks < 10_000, "ticks run: " + ticks);
    }

    /**
     * A streaming run's loop turns contacts into events ({@link EventLog}): the throwaway loop must do the same, or
     * that code meets the run's first contacts interpreted (200 spheres landing cost two ticks of 1.1–1.9 ms).
     */
    @Test
    void shouldPublishIntoTheSinkItIsGivenSoThatTheEventCodeIsCompiledToo() throws Exception {
        EventLog events = new EventLog(1_000_000L);
        EventLog.Receiver receiver = events.newClientReceiver();
        JitWarmUp.run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1000, 5_000, events, Long.MAX_VALUE, 0);
        long[] received = new long[1];
        receiver.drain(event -> received[0]++);
        // The embedded scene's hand path presses the wall and leaves it again within its first seconds.
        assertTrue(received[0] > 0, "events published by the warm-up: " + received[0]);
    }

    /**
     * No warm-up step of a pile came near the physics budget, so C2 compiled the verdict's change out of the tick,
     * and a real pile that went over budget threw the compiled tick away at that moment: the warm-up's loops must
     * see the verdict turn to "over", as a slow scene's loop does (and as its stream publishes).
     */
    @Test
    void shouldTakeTheLoopOverThePhysicsBudgetSoThatTheVerdictsBranchesAreCompiledToo() throws Exception {
        boolean[] seen = new boolean[2];
        TickSink sink = snapshot -> {
            seen[0] |= snapshot.physicsOverBudget;
            seen[1] |= (snapshot.events & LoopEvents.PHYSICS_BUDGET_CHANGED) != 0;
        };
        JitWarmUp.run(SceneBuilder.build(new SceneLoader().loadEmbedded()), 1000, JitWarmUp.DEFAULT_TICKS, sink,
            Long.MAX_VALUE, 0);
        assertTrue(seen[0], "a warm-up tick over the physics budget");
        assertTrue(seen[1], "the verdict's change, as the stream's event code sees it");
    }

    /**
     * A tester's 10,000-sphere pile used 21 MB of a 40 MB heap: building the throwaway copy then spent minutes in
     * back-to-back full collections. `run` now skips the warm-up, saying why, when the heap cannot hold a copy.
     */
    @Test
    void shouldSkipTheWarmUpWhenTheHeapCannotHoldACopyOfTheScene() {
        long mb = 1L << 20;
        assertEquals("the heap cannot hold a throwaway copy of the scene (21 MB in use of 40 MB)",
            JitWarmUp.noRoomForACopy(21 * mb, 40 * mb));
        assertNull(JitWarmUp.noRoomForACopy(30 * mb, 512 * mb), "the default scene at the launcher's heap");
        assertNull(JitWarmUp.noRoomForACopy(150 * mb, 512 * mb), "a pile at the budget's limit");
    }
}
