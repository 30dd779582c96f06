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

        List<Object> sent = frames.eventsFrames(receiver, false);
        assertEquals(1, sent.size());
        EventsMessage events = (EventsMessage) StreamCodec.decode((byte[]) sent.get(0));
        assertEquals(List.of(new StreamEvent.PhysicsOverBudget(999, 1_420_000L, 800_000L),
            new StreamEvent.ContactsDropped(999, 2, 7)), events.events());
    }

    /** Found by a slow client: the events past the 1024th of a frame were read from the ring and never sent. */
    @Test
    void shouldSendEveryEventOverAsManyEventsMessagesAsItTakes() throws Exception {
        BuiltScene scene = SceneBuilder.build(new SceneLoader().loadEmbedded());
        ProtocolStreamFrames frames = new ProtocolStreamFrames(scene, 1000, new LoopStatsBoard());
        EventLog log = new EventLog(1_000_000L);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(scene.haptic().world().bodyCount());
        // Bodies 0 and 1 touch on even ticks and part on odd ones: began and impact, then ended, 4,500 events.
        for (long tick = 1; tick <= 3000; tick++) {
            s.tick = tick;
            s.publishedContacts = tick % 2 == 0 ? 1 : 0;
            s.contactBodies[0] = 0;
            s.contactBodies[1] = 1;
            log.onTick(s);
        }
        List<Object> sent = frames.eventsFrames(receiver, false);
        List<StreamEvent> all = new java.util.ArrayList<>();
        for (Object frame : sent) {
            List<StreamEvent> events = ((EventsMessage) StreamCodec.decode((byte[]) frame)).events();
            assertTrue(events.size() <= 1024, "at most 1024 per message");
            all.addAll(events);
        }
        assertEquals(5, sent.size());
        assertEquals(4499, all.size(), "1,500 began and impacts from tick 2, 1,499 ends");
        assertEquals(List.of(), frames.eventsFrames(receiver, false), "nothing left");
    }
}
