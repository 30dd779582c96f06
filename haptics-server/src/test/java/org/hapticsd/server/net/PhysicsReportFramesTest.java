package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.scene.BuiltScene;
import org.hapticsd.server.scene.SceneBuilder;
import org.hapticsd.server.scene.SceneLoader;
import org.junit.jupiter.api.Test;

/** The physics budget and contact drops as a client reads them: STATE's loop fields and the EVENTS kinds 7 to 9. */
class PhysicsReportFramesTest {
    @Test
    void shouldCarryTheSnapshotsPhysicsBudgetInStateAndItsChangesAndDropsAsEvents() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().loadEmbedded());
        ProtocolStreamFrames frames = new ProtocolStreamFrames(scene, 1000, new LoopStatsBoard());
        EventLog log = new EventLog(1_000_000L);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(scene.haptic().world().bodyCount());
        s.tick = 999;
        s.physicsOverBudget = true;
        s.physicsStepP99Ns = 1_420_000L;
        s.physicsBudgetNs = 800_000L;
        s.physicsLoadPercent = 142;
        s.droppedPairs = 2;
        s.droppedPoints = 7;
        s.events = LoopEvents.PHYSICS_BUDGET_CHANGED | LoopEvents.CONTACTS_DROPPED;
        log.onTick(s);

        StateMessage state = (StateMessage) StreamJson.decodeJson(frames.stateJson(s));
        assertTrue(state.loop().physicsOverBudget());
        assertEquals(142, state.loop().physicsLoadPercent());

        EventsMessage events = (EventsMessage) StreamCodec.decode((byte[]) frames.eventsFrame(receiver, false));
        assertEquals(List.of(new StreamEvent.PhysicsOverBudget(999, 1_420_000L, 800_000L),
            new StreamEvent.ContactsDropped(999, 2, 7)), events.events());
    }
}
