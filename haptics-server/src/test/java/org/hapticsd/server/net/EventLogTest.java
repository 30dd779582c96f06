package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.safety.SafetyState;
import org.junit.jupiter.api.Test;

/** Tick-to-tick events as clients read them from the broadcast ring. */
class EventLogTest {
    private static final long MS = 1_000_000L;

    private record Seen(int kind, long tick, int a, int b, double impulseNewtonSeconds) {
    }

    private static List<Seen> drain(EventLog.Receiver receiver) {
        List<Seen> seen = new ArrayList<>();
        receiver.drain(e -> seen.add(new Seen(e.kind(), e.tick(), e.bodyA(), e.bodyB(),
            e.kind() == EventLog.IMPACT ? e.impulseNewtonSeconds() : 0.0)));
        return seen;
    }

    private static void contact(LoopSnapshot s, int i, int a, int b, double forceX, double normalX) {
        s.contactBodies[2 * i] = a;
        s.contactBodies[2 * i + 1] = b;
        s.contactForceN[3 * i] = forceX;
        s.contactNormal[3 * i] = normalX;
    }

    @Test
    void shouldReportPairsBeginningAndEndingTheirImpactSafetyAndDevice() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(2);
        s.deviceConnected = true;
        s.safety = SafetyState.GATED;
        s.tick = 0;
        log.onTick(s);
        // Tick 1: the tool (0) touches body 1 at two points, 3 N and 1 N along the normal: impulse 4 N x 1 ms.
        s.tick = 1;
        s.publishedContacts = 2;
        contact(s, 0, 0, 1, -3.0, -1.0);
        contact(s, 1, 0, 1, -1.0, -1.0);
        log.onTick(s);
        s.tick = 2;
        s.safety = SafetyState.ACTIVE;
        log.onTick(s);
        s.tick = 3;
        s.publishedContacts = 0;
        s.deviceConnected = false;
        log.onTick(s);

        List<Seen> seen = drain(receiver);
        assertEquals(List.of(
            new Seen(EventLog.DEVICE_CONNECTED, 0, 0, 0, 0.0),
            new Seen(EventLog.CONTACT_BEGAN, 1, 0, 1, 0.0),
            new Seen(EventLog.IMPACT, 1, 0, 1, 4.0e-3),
            new Seen(EventLog.SAFETY_CHANGED, 2, 0, 0, 0.0),
            new Seen(EventLog.CONTACT_ENDED, 3, 0, 1, 0.0),
            new Seen(EventLog.DEVICE_DISCONNECTED, 3, 0, 0, 0.0)), seen);
    }

    /**
     * A pile's contacts: hundreds of points in no particular order, a pair's points not together, pairs coming and
     * going. Against a reference built with sets: each pair that began (lower body first, in pair order, with the
     * summed impulse of its points, oriented as its first point) and each that ended, every tick.
     */
    @Test
    void shouldFindThePairsThatBeganAndEndedAmongManyUnorderedPoints() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(300, 0, LoopSnapshot.MAX_CONTACTS);
        java.util.Random random = new java.util.Random(7);
        java.util.TreeMap<Long, Integer> previous = new java.util.TreeMap<>();
        for (long tick = 0; tick < 200; tick++) {
            s.tick = tick;
            int points = 300 + random.nextInt(400);
            s.publishedContacts = points;
            java.util.TreeMap<Long, double[]> current = new java.util.TreeMap<>(); // pair -> {impulse, a, b}
            for (int i = 0; i < points; i++) {
                int a = random.nextInt(40);
                int b = a + 1 + random.nextInt(8);
                if (random.nextBoolean()) {
                    int t = a;
                    a = b;
                    b = t;
                }
                double force = -1.0 - random.nextInt(5);
                contact(s, i, a, b, force, -1.0);
                long key = (long) Math.min(a, b) << 32 | Math.max(a, b);
                double[] seen = current.computeIfAbsent(key, k -> new double[] {0.0, 0, 0});
                if (seen[0] == 0.0) {
                    seen[1] = a;
                    seen[2] = b;
                }
                seen[0] += -force * 1e-3;
            }
            log.onTick(s);
            List<Seen> expected = new ArrayList<>();
            long now = tick;
            if (tick > 0) {
                current.forEach((key, v) -> {
                    if (!previous.containsKey(key)) {
                        expected.add(new Seen(EventLog.CONTACT_BEGAN, now, (int) v[1], (int) v[2], 0.0));
                        expected.add(new Seen(EventLog.IMPACT, now, (int) v[1], (int) v[2], v[0]));
                    }
                });
                previous.forEach((key, orientation) -> {
                    if (!current.containsKey(key)) {
                        int low = (int) (key >>> 32);
                        int high = key.intValue();
                        expected.add(new Seen(EventLog.CONTACT_ENDED, now, orientation == 0 ? low : high,
                            orientation == 0 ? high : low, 0.0));
                    }
                });
            }
            List<Seen> seen = drain(receiver).stream().filter(e -> e.kind() != EventLog.DEVICE_CONNECTED).toList();
            assertEquals(expected.size(), seen.size(), "events at tick " + tick);
            for (int i = 0; i < expected.size(); i++) {
                Seen e = expected.get(i);
                Seen g = seen.get(i);
                assertEquals(List.of(e.kind(), e.tick(), e.a(), e.b()), List.of(g.kind(), g.tick(), g.a(), g.b()),
                    "event " + i + " at tick " + tick);
                assertEquals(e.impulseNewtonSeconds(), g.impulseNewtonSeconds(), 1e-12, "impulse of event " + i);
            }
            previous.clear();
            current.forEach((key, v) -> previous.put(key, v[1] < v[2] ? 0 : 1));
        }
    }

    @Test
    void shouldReportThePhysicsBudgetVerdictWithTheStepTimeAndTheBudget() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(2);
        s.physicsBudgetNs = 800_000L;
        s.tick = 999;
        s.physicsOverBudget = true;
        s.physicsStepP99Ns = 3_000_000_000L; // 3 s: above 2^31, so the u32 must not come back negative
        s.events = LoopEvents.PHYSICS_BUDGET_CHANGED;
        log.onTick(s);
        s.tick = 1000;
        s.events = 0;
        log.onTick(s);
        s.tick = 1999;
        s.physicsOverBudget = false;
        s.physicsStepP99Ns = 300_000L;
        s.events = LoopEvents.PHYSICS_BUDGET_CHANGED;
        log.onTick(s);
        List<Seen> seen = drain(receiver);
        assertEquals(List.of(
            new Seen(EventLog.PHYSICS_OVER_BUDGET, 999, (int) 3_000_000_000L, 800_000, 0.0),
            new Seen(EventLog.PHYSICS_WITHIN_BUDGET, 1999, 300_000, 800_000, 0.0)),
            seen);
        assertEquals(3_000_000_000L, Integer.toUnsignedLong(seen.get(0).a()));
    }

    @Test
    void shouldReportDropsAtOnceThenAtMostOnceASecondAndTheRestWhenTheyStop() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(2);
        long pairs = 0;
        long points = 0;
        // Ticks 10..2509 drop 1 pair and 3 points each; tick 2510 drops nothing.
        for (long tick = 0; tick <= 2600; tick++) {
            s.tick = tick;
            boolean drops = tick >= 10 && tick < 2510;
            s.droppedPairs = drops ? 1 : 0;
            s.droppedPoints = drops ? 3 : 0;
            pairs += s.droppedPairs;
            points += s.droppedPoints;
            log.onTick(s);
        }
        List<Seen> seen = drain(receiver);
        assertEquals(List.of(
            new Seen(EventLog.CONTACTS_DROPPED, 10, 1, 3, 0.0),
            new Seen(EventLog.CONTACTS_DROPPED, 1010, 1000, 3000, 0.0),
            new Seen(EventLog.CONTACTS_DROPPED, 2010, 1000, 3000, 0.0),
            new Seen(EventLog.CONTACTS_DROPPED, 2509, 499, 1497, 0.0)), seen);
        assertEquals(pairs, seen.stream().mapToLong(Seen::a).sum(), "the events add up to every drop");
        assertEquals(points, seen.stream().mapToLong(Seen::b).sum());
    }

    /** A tester's run ended while its steps still dropped: the last second's drops never reached the clients. */
    @Test
    void shouldSendTheDropsStillPendingWhenTheRunEndsWhileDropping() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(2);
        for (long tick = 0; tick < 1500; tick++) {
            s.tick = tick;
            s.droppedPairs = 2;
            s.droppedPoints = 5;
            log.onTick(s);
        }
        log.finish();
        List<Seen> seen = drain(receiver);
        assertEquals(List.of(
            new Seen(EventLog.CONTACTS_DROPPED, 0, 2, 5, 0.0),
            new Seen(EventLog.CONTACTS_DROPPED, 1000, 2000, 5000, 0.0),
            new Seen(EventLog.CONTACTS_DROPPED, 1499, 998, 2495, 0.0)), seen);
        log.finish();
        assertEquals(List.of(), drain(receiver), "nothing more to send");
    }

    @Test
    void shouldCarryEveryImpulseCollisionOfATickWithItsWaveform() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(3);
        s.safety = SafetyState.ACTIVE;
        s.tick = 0;
        log.onTick(s);
        s.tick = 1;
        s.events = LoopEvents.IMPULSE_COLLISION;
        s.impulseCollisions = 2;
        s.impulseBodies[0] = -1;
        s.impulseBodies[1] = 2;
        s.impulseImpulseNs[0] = 0.045;
        s.impulseHeightN[0] = 5.28;
        s.impulseDurationS[0] = 0.0177;
        s.impulseElasticity[0] = 0.4;
        s.impulseMode[0] = org.hapticsd.physics.ContactMode.PENALTY.ordinal();
        s.impulseBodies[2] = 1;
        s.impulseBodies[3] = 2;
        s.impulseImpulseNs[1] = 0.5;
        s.impulseHeightN[1] = 58.71;
        s.impulseDurationS[1] = 0.008418;
        s.impulseElasticity[1] = 1.0;
        s.impulseMode[1] = org.hapticsd.physics.ContactMode.IMPULSE.ordinal();
        log.onTick(s);
        s.tick = 2;
        s.events = 0;
        log.onTick(s);
        List<String> seen = new ArrayList<>();
        receiver.drain(e -> {
            if (e.kind() == EventLog.IMPULSE_COLLISION) {
                seen.add(e.tick() + " " + e.bodyA() + "-" + e.bodyB() + " " + e.impulseNewtonSeconds() + " "
                    + e.heightN() + " " + e.durationS() + " " + e.elasticity() + " " + e.modeOrdinal());
            }
        });
        assertEquals(List.of(
            "1 -1-2 0.045 5.28 0.0177 0.4 " + org.hapticsd.physics.ContactMode.PENALTY.ordinal(),
            "1 1-2 0.5 58.71 0.008418 1.0 " + org.hapticsd.physics.ContactMode.IMPULSE.ordinal()), seen,
            "one event per collision of the tick, none on the next");
    }

    /**
     * Found by a 5 Hz client of a pile whose contact budget dropped points: the flickering contact pairs (about
     * 50,000 events a second) lapped the one ring, and the client got none of the CONTACTS_DROPPED events.
     */
    @Test
    void shouldKeepTheRareEventsOfAClientThatContactChurnLeftARingBehind() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(64);
        s.safety = SafetyState.ACTIVE;
        // 200 ticks (a 5 Hz client's frame) in which 60 pairs begin and end every tick, dropping contacts throughout.
        for (long tick = 0; tick < 2200; tick++) {
            s.tick = tick;
            s.publishedContacts = tick % 2 == 0 ? 60 : 0;
            for (int i = 0; i < 60; i++) {
                contact(s, i, 1 + i, 100 + i, -1.0, -1.0);
            }
            s.droppedPairs = 1;
            s.droppedPoints = 2;
            s.safety = tick == 1500 ? SafetyState.SAFE : s.safety;
            log.onTick(s);
        }
        List<Seen> seen = drain(receiver);
        assertEquals(List.of(new Seen(EventLog.CONTACTS_DROPPED, 0, 1, 2, 0.0),
                new Seen(EventLog.CONTACTS_DROPPED, 1000, 1000, 2000, 0.0),
                new Seen(EventLog.SAFETY_CHANGED, 1500, 0, 0, 0.0),
                new Seen(EventLog.CONTACTS_DROPPED, 2000, 1000, 2000, 0.0)),
            seen.stream().filter(e -> e.kind() != EventLog.CONTACT_BEGAN && e.kind() != EventLog.CONTACT_ENDED
                && e.kind() != EventLog.IMPACT).toList());
        assertEquals(0, receiver.statesLapped());
        assertEquals(1, receiver.lapped(), "the contact ring (16,000 events) was lapped by 2,200 x 60 of them");
        for (int i = 1; i < seen.size(); i++) {
            assertEquals(true, seen.get(i).tick() >= seen.get(i - 1).tick(), "oldest first at " + i);
        }
    }

    /**
     * Found with a 200-sphere pile: every snapshot carried 64 contacts, so a viewer saw 64 of 450 and events only
     * for those. Now as many as the scene's budget: here 1,000 pairs listed as the engine lists them (by lower
     * body, A the more mobile one), each reported once when it begins and ends, A and B as the snapshot had them.
     */
    @Test
    void shouldReportEveryPairOfALargeSceneOnceWithItsOrientation() {
        EventLog log = new EventLog(MS);
        EventLog.Receiver receiver = log.newClientReceiver();
        LoopSnapshot s = new LoopSnapshot(2000, 0, 2000);
        s.safety = SafetyState.ACTIVE;
        s.tick = 0;
        log.onTick(s);
        // Bodies 0..4 are static; pair k is dynamic body 10 + k over static body k % 5, two points each.
        int pairs = 1000;
        int i = 0;
        for (int lower = 0; lower < 5; lower++) {
            for (int k = lower; k < pairs; k += 5) {
                contact(s, i++, 10 + k, lower, -1.0, -1.0);
                contact(s, i++, 10 + k, lower, -2.0, -1.0);
            }
        }
        s.publishedContacts = i;
        s.tick = 1;
        log.onTick(s);
        s.publishedContacts = 0;
        s.tick = 2;
        log.onTick(s);
        List<Seen> seen = drain(receiver);
        List<Seen> began = seen.stream().filter(e -> e.kind() == EventLog.CONTACT_BEGAN).toList();
        List<Seen> ended = seen.stream().filter(e -> e.kind() == EventLog.CONTACT_ENDED).toList();
        assertEquals(pairs, began.size());
        assertEquals(pairs, ended.size());
        assertEquals(pairs, began.stream().map(e -> e.a() + "-" + e.b()).distinct().count(), "each pair once");
        for (Seen e : began) {
            assertEquals(e.a() - 10, e.b() + 5 * ((e.a() - 10) / 5), "A the dynamic body, B its static one: " + e);
        }
        Seen impact = seen.stream().filter(e -> e.kind() == EventLog.IMPACT && e.a() == 10).findFirst().orElseThrow();
        assertEquals(3.0e-3, impact.impulseNewtonSeconds(), 1e-15, "both points' normal force, 1 ms");
    }
}
