package org.hapticsd.server.net;

import java.nio.ByteBuffer;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.broadcast.BroadcastBufferDescriptor;
import org.agrona.concurrent.broadcast.BroadcastReceiver;
import org.agrona.concurrent.broadcast.BroadcastTransmitter;
import org.agrona.concurrent.broadcast.CopyBroadcastReceiver;
import org.hapticsd.server.loop.LoopEvents;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.TickSink;
import org.hapticsd.server.safety.SafetyState;

/**
 * Turns ticks into stream events (a contact pair began or ended, the impact that began it, a safety change, the
 * device connecting or disconnecting, the physics budget, dropped contacts, an impulse waveform beginning) and
 * broadcasts them to every client without the loop waiting for any:
 * the loop thread writes fixed-size records into an Agrona broadcast ring (one writer, any number of readers,
 * no lock, no allocation), and each client's stream reads what arrived since its last frame. Clients see every
 * event even at 1 Hz, which reading the latest snapshot alone could not give; a client that falls a whole ring
 * behind loses the oldest events and the loss is counted.
 *
 * <p>Pairs are compared tick to tick on the contacts the snapshot carries (its scene's contact budget, at most
 * {@link LoopSnapshot#MAX_CONTACTS}); a pair's impact impulse is the normal force of its points in the tick it
 * began times the period: the impulse the contact exchanged in that step.
 */
public final class EventLog implements TickSink {
    static final int CONTACT_BEGAN = 1;
    static final int CONTACT_ENDED = 2;
    static final int IMPACT = 3;
    static final int SAFETY_CHANGED = 4;
    static final int DEVICE_CONNECTED = 5;
    static final int DEVICE_DISCONNECTED = 6;
    static final int PHYSICS_OVER_BUDGET = 7;
    static final int PHYSICS_WITHIN_BUDGET = 8;
    static final int CONTACTS_DROPPED = 9;
    static final int IMPULSE_COLLISION = 10;
    /**
     * tick (8), body A (4), body B (4), impulse or safety codes (8); for IMPULSE_COLLISION also height, duration and
     * elasticity (3 × 8) and the contact mode (4), padded to 8.
     */
    static final int RECORD_BYTES = 56;
    /**
     * The contact pairs' ring (CONTACT_BEGAN, CONTACT_ENDED, IMPACT), 1 MiB: 16,000 events (64 bytes each with the
     * ring's header). They can come by tens of thousands a second (a pile whose contact budget drops points, so the
     * pairs published flicker), so a client that reads less often than that falls a ring behind and loses the oldest.
     */
    private static final int CONTACT_RING_BYTES = 1 << 20;
    /**
     * Every other kind's ring, 128 KiB: 2,000 events. These are rare by construction (a safety or device change, a
     * budget verdict, drops at most once a second, collisions) and have a ring of their own so that contact churn
     * can never push them out: found by a 5 Hz client that got none of 10 CONTACTS_DROPPED.
     */
    private static final int STATE_RING_BYTES = 1 << 17;

    private final UnsafeBuffer contactBuffer;
    private final BroadcastTransmitter contactTransmitter;
    private final UnsafeBuffer stateBuffer;
    private final BroadcastTransmitter transmitter;
    private final UnsafeBuffer record = new UnsafeBuffer(new byte[RECORD_BYTES]);
    private final double periodS;
    private long[] previousPairs = new long[LoopSnapshot.MAX_CONTACTS];
    private long[] currentPairs = new long[LoopSnapshot.MAX_CONTACTS];
    private boolean[] previousSwapped = new boolean[LoopSnapshot.MAX_CONTACTS];
    private boolean[] currentSwapped = new boolean[LoopSnapshot.MAX_CONTACTS];
    private final double[] currentImpulse = new double[LoopSnapshot.MAX_CONTACTS];
    /** This tick's points' pairs, then sorted, with each point's index: {@link #pairs}'s work space. */
    private final long[] pointPairs = new long[LoopSnapshot.MAX_CONTACTS];
    private final int[] pointOrder = new int[LoopSnapshot.MAX_CONTACTS];
    private final PairKeySort sort = new PairKeySort(LoopSnapshot.MAX_CONTACTS);
    private int previousCount;
    private SafetyState previousSafety;
    private boolean previousConnected;
    private boolean first = true;
    /** CONTACTS_DROPPED: at most one event per this many ticks while drops go on (a second's worth). */
    private final long dropReportTicks;
    private long pendingDroppedPairs;
    private long pendingDroppedPoints;
    private long lastDroppingTick;
    private long lastDropReportTick;
    private boolean dropping;

    public EventLog(long periodNs) {
        this.contactBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
            CONTACT_RING_BYTES + BroadcastBufferDescriptor.TRAILER_LENGTH));
        this.contactTransmitter = new BroadcastTransmitter(contactBuffer);
        this.stateBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(
            STATE_RING_BYTES + BroadcastBufferDescriptor.TRAILER_LENGTH));
        this.transmitter = new BroadcastTransmitter(stateBuffer);
        this.periodS = periodNs * 1e-9;
        this.dropReportTicks = Math.max(1, Math.round(1e9 / periodNs));
    }

    /** A reader of the contact pairs' ring, positioned at its newest event; any thread, one reader per client. */
    CopyBroadcastReceiver newContactReceiver() {
        return new CopyBroadcastReceiver(new BroadcastReceiver(contactBuffer),
            new UnsafeBuffer(new byte[RECORD_BYTES * 2]));
    }

    /** A reader of the other kinds' ring, positioned at its newest event. */
    CopyBroadcastReceiver newStateReceiver() {
        return new CopyBroadcastReceiver(new BroadcastReceiver(stateBuffer),
            new UnsafeBuffer(new byte[RECORD_BYTES * 2]));
    }

    /** One client's view of the log: the events since its last {@link Receiver#drain}. */
    public Receiver newClientReceiver() {
        return new Receiver(newContactReceiver(), newStateReceiver());
    }

    /**
     * What one client has not read yet, from both rings, merged oldest first (a tick's contact events before its
     * other events, the order the loop writes them); used by one thread at a time (the client's event loop), which
     * may allocate.
     */
    public static final class Receiver {
        private static final int SLOT_BYTES = 4 + RECORD_BYTES;
        private final CopyBroadcastReceiver contacts;
        private final CopyBroadcastReceiver states;
        private final Event event = new Event();
        private long contactsLapped;
        private long statesLapped;
        /** Events of this tick and older are past for this client: skipped (set from its first STATE). */
        private long floorTick = Long.MIN_VALUE;
        /** The other kinds' events read from their ring and not yet handed on: kind, then the record. */
        private UnsafeBuffer pending = new UnsafeBuffer(new byte[64 * SLOT_BYTES]);
        private int pendingFirst;
        private int pendingCount;
        private Sink sink;
        /** The rings' handlers, made once: a method reference per receive call was garbage on every client run. */
        private final org.agrona.concurrent.MessageHandler contactHandler = this::onContact;
        private final org.agrona.concurrent.MessageHandler stateHandler = this::onState;

        Receiver(CopyBroadcastReceiver contacts, CopyBroadcastReceiver states) {
            this.contacts = contacts;
            this.states = states;
        }

        /** Hands every event since the last call to {@code sink}, oldest first, through one reused view. */
        public void drain(Sink sink) {
            this.sink = sink;
            try {
                readStates();
                try {
                    while (contacts.receive(contactHandler) > 0) {
                        // One event per receive call.
                    }
                } catch (IllegalStateException lapped) {
                    // The loop wrote a whole contact ring while this client was not reading: the oldest are gone.
                    contactsLapped++;
                }
                // What is left of the other kinds is newer than every contact event read.
                while (pendingCount > 0) {
                    deliverPending();
                }
            } finally {
                this.sink = null;
            }
        }

        private void readStates() {
            try {
                while (states.receive(stateHandler) > 0) {
                    // One event per receive call.
                }
            } catch (IllegalStateException lapped) {
                statesLapped++;
            }
        }

        private void onState(int kind, DirectBuffer buffer, int offset, int length) {
            if (buffer.getLong(offset) > floorTick) {
                keep(kind, buffer, offset);
            }
        }

        private void keep(int kind, DirectBuffer buffer, int offset) {
            int capacity = pending.capacity() / SLOT_BYTES;
            if (pendingCount == capacity) {
                UnsafeBuffer grown = new UnsafeBuffer(new byte[2 * pending.capacity()]);
                for (int i = 0; i < pendingCount; i++) {
                    grown.putBytes(i * SLOT_BYTES, pending, ((pendingFirst + i) % capacity) * SLOT_BYTES, SLOT_BYTES);
                }
                pending = grown;
                pendingFirst = 0;
                capacity *= 2;
            }
            int at = ((pendingFirst + pendingCount) % capacity) * SLOT_BYTES;
            pending.putInt(at, kind);
            pending.putBytes(at + 4, buffer, offset, RECORD_BYTES);
            pendingCount++;
        }

        private void onContact(int kind, DirectBuffer buffer, int offset, int length) {
            long tick = buffer.getLong(offset);
            // A tick's other events follow its contact events: hand on the older ones first.
            while (pendingCount > 0 && pending.getLong(pendingFirst * SLOT_BYTES + 4) < tick) {
                deliverPending();
            }
            if (tick > floorTick) {
                event.wrap(kind, buffer, offset);
                sink.accept(event);
            }
        }

        private void deliverPending() {
            int at = pendingFirst * SLOT_BYTES;
            event.wrap(pending.getInt(at), pending, at + 4);
            sink.accept(event);
            pendingFirst = (pendingFirst + 1) % (pending.capacity() / SLOT_BYTES);
            pendingCount--;
        }

        /**
         * A new client gets no event from before its first STATE (spec 3.1): events up to and including
         * {@code tick}, the first STATE's, are skipped. The rings a new receiver joins still hold older ones.
         */
        public void skipThrough(long tick) {
            floorTick = Math.max(floorTick, tick);
        }

        /** Times this client fell a whole ring behind and lost events, both rings. */
        public long lapped() {
            return contactsLapped + statesLapped;
        }

        /** Times this client fell a whole ring of the rare kinds behind (safety, device, budget, drops, collisions). */
        public long statesLapped() {
            return statesLapped;
        }
    }

    /**
     * One event as read from the ring, valid only during {@link Sink#accept}: kind, tick, body A and B (world
     * indices, −1 for the tool in IMPULSE_COLLISION), and by kind: for IMPACT and IMPULSE_COLLISION the impulse
     * (N·s); for SAFETY_CHANGED the previous state's ordinal ({@link #fromState}) and the new state's plus fault's
     * ordinals packed as {@code state | fault << 8} ({@link #toStateAndFault}); for PHYSICS_OVER_BUDGET and
     * PHYSICS_WITHIN_BUDGET, body A and B carry the step's p99 and the budget (ns), for CONTACTS_DROPPED the dropped
     * pairs and points, each an unsigned 32-bit value ({@code Integer.toUnsignedLong}); for IMPULSE_COLLISION also
     * the waveform's height (N), duration (s), the elasticity and the pair's contact mode (a ContactMode ordinal).
     */
    public static final class Event {
        private int kind;
        private DirectBuffer buffer;
        private int offset;

        void wrap(int kind, DirectBuffer buffer, int offset) {
            this.kind = kind;
            this.buffer = buffer;
            this.offset = offset;
        }

        public int kind() {
            return kind;
        }

        public long tick() {
            return buffer.getLong(offset);
        }

        public int bodyA() {
            return buffer.getInt(offset + 8);
        }

        public int bodyB() {
            return buffer.getInt(offset + 12);
        }

        public double impulseNewtonSeconds() {
            return buffer.getDouble(offset + 16);
        }

        public int fromState() {
            return buffer.getInt(offset + 16);
        }

        public int toStateAndFault() {
            return buffer.getInt(offset + 20);
        }

        public double heightN() {
            return buffer.getDouble(offset + 24);
        }

        public double durationS() {
            return buffer.getDouble(offset + 32);
        }

        public double elasticity() {
            return buffer.getDouble(offset + 40);
        }

        public int modeOrdinal() {
            return buffer.getInt(offset + 48);
        }
    }

    /** Receives one event; see {@link Event}. */
    @FunctionalInterface
    public interface Sink {
        void accept(Event event);
    }

    /** Loop thread, once per tick: no allocation. */
    @Override
    public void onTick(LoopSnapshot s) {
        if ((s.events & LoopEvents.SCENE_CHANGED) != 0) {
            // The old scene's contacts did not end: their bodies are gone, and their indices now name others.
            previousCount = 0;
        }
        int count = pairs(s);
        if (!first) {
            // Both lists are sorted and without repeats: one walk through each finds what began, then what ended.
            for (int i = 0, j = 0; i < count; i++) {
                long pair = currentPairs[i];
                while (j < previousCount && previousPairs[j] < pair) {
                    j++;
                }
                if (j == previousCount || previousPairs[j] != pair) {
                    emitPair(CONTACT_BEGAN, s.tick, pair, currentSwapped[i], 0.0);
                    emitPair(IMPACT, s.tick, pair, currentSwapped[i], currentImpulse[i]);
                }
            }
            for (int i = 0, j = 0; i < previousCount; i++) {
                long pair = previousPairs[i];
                while (j < count && currentPairs[j] < pair) {
                    j++;
                }
                if (j == count || currentPairs[j] != pair) {
                    emitPair(CONTACT_ENDED, s.tick, pair, previousSwapped[i], 0.0);
                }
            }
            if (s.safety != previousSafety) {
                record.putLong(0, s.tick);
                record.putInt(8, 0);
                record.putInt(12, 0);
                record.putInt(16, previousSafety.ordinal());
                record.putInt(20, s.safety.ordinal() | s.fault.ordinal() << 8);
                transmitter.transmit(SAFETY_CHANGED, record, 0, RECORD_BYTES);
            }
        }
        if ((s.events & LoopEvents.PHYSICS_BUDGET_CHANGED) != 0) {
            emitCounts(s.physicsOverBudget ? PHYSICS_OVER_BUDGET : PHYSICS_WITHIN_BUDGET, s.tick, s.physicsStepP99Ns,
                s.physicsBudgetNs);
        }
        contactsDropped(s);
        if ((s.events & LoopEvents.IMPULSE_COLLISION) != 0) {
            for (int k = 0; k < s.impulseCollisions; k++) {
                record.putLong(0, s.tick);
                record.putInt(8, s.impulseBodies[2 * k]);
                record.putInt(12, s.impulseBodies[2 * k + 1]);
                record.putDouble(16, s.impulseImpulseNs[k]);
                record.putDouble(24, s.impulseHeightN[k]);
                record.putDouble(32, s.impulseDurationS[k]);
                record.putDouble(40, s.impulseElasticity[k]);
                record.putInt(48, s.impulseMode[k]);
                transmitter.transmit(IMPULSE_COLLISION, record, 0, RECORD_BYTES);
            }
        }
        if (first || s.deviceConnected != previousConnected) {
            if (!first || s.deviceConnected) {
                record.putLong(0, s.tick);
                record.putInt(8, 0);
                record.putInt(12, 0);
                record.putLong(16, 0);
                transmitter.transmit(s.deviceConnected ? DEVICE_CONNECTED : DEVICE_DISCONNECTED, record, 0,
                    RECORD_BYTES);
            }
        }
        long[] swap = previousPairs;
        previousPairs = currentPairs;
        currentPairs = swap;
        boolean[] swapOrientation = previousSwapped;
        previousSwapped = currentSwapped;
        currentSwapped = swapOrientation;
        previousCount = count;
        previousSafety = s.safety;
        previousConnected = s.deviceConnected;
        first = false;
    }

    /**
     * Drops are reported at once when they start, then at most once per {@link #dropReportTicks} while they go on,
     * and what is left when they stop, dated by the last tick that dropped: the events' counts add up to every drop,
     * and a step that drops on every tick does not flood the clients with a thousand events a second.
     */
    private void contactsDropped(LoopSnapshot s) {
        boolean drops = s.droppedPairs > 0 || s.droppedPoints > 0;
        if (drops) {
            pendingDroppedPairs += s.droppedPairs;
            pendingDroppedPoints += s.droppedPoints;
            if (!dropping || s.tick - lastDropReportTick >= dropReportTicks) {
                emitDrops(s.tick);
            }
            lastDroppingTick = s.tick;
        } else if (dropping && (pendingDroppedPairs > 0 || pendingDroppedPoints > 0)) {
            emitDrops(lastDroppingTick);
        }
        dropping = drops;
    }

    /**
     * The run is over: what drops are still pending (a run that ended while its steps still dropped) go out, dated
     * by the last tick that dropped, so the events add up to every drop. Call once the loop has stopped: the log has
     * one writer.
     */
    public void finish() {
        if (pendingDroppedPairs > 0 || pendingDroppedPoints > 0) {
            emitDrops(lastDroppingTick);
        }
        dropping = false;
    }

    private void emitDrops(long tick) {
        emitCounts(CONTACTS_DROPPED, tick, pendingDroppedPairs, pendingDroppedPoints);
        lastDropReportTick = tick;
        pendingDroppedPairs = 0;
        pendingDroppedPoints = 0;
    }

    /** An event whose details are two unsigned 32-bit counts, saturating: the wire's u32 fields. */
    private void emitCounts(int kind, long tick, long first, long second) {
        record.putLong(0, tick);
        record.putInt(8, (int) Math.min(first, 0xFFFF_FFFFL));
        record.putInt(12, (int) Math.min(second, 0xFFFF_FFFFL));
        record.putLong(16, 0);
        transmitter.transmit(kind, record, 0, RECORD_BYTES);
    }

        /**
     * This tick's contact pairs into {@code currentPairs}, sorted, each once, with the orientation of its first point
     * and the sum of its points' normal impulses (in point order, so the sum is the same however the pairs sort).
     *
     * @return the number of pairs
     */
    private int pairs(LoopSnapshot s) {
        int points = s.publishedContacts;
        for (int i = 0; i < points; i++) {
            int a = s.contactBodies[2 * i];
            int b = s.contactBodies[2 * i + 1];
            pointPairs[i] = a <= b ? (long) a << 32 | (b & 0xFFFF_FFFFL) : (long) b << 32 | (a & 0xFFFF_FFFFL);
            pointOrder[i] = i;
        }
        sort.sort(pointPairs, pointOrder, points);
        int count = 0;
        for (int k = 0; k < points; k++) {
            int i = pointOrder[k];
            double normalN = s.contactForceN[3 * i] * s.contactNormal[3 * i]
                + s.contactForceN[3 * i + 1] * s.contactNormal[3 * i + 1]
                + s.contactForceN[3 * i + 2] * s.contactNormal[3 * i + 2];
            double impulse = Math.abs(normalN) * periodS;
            if (count > 0 && currentPairs[count - 1] == pointPairs[k]) {
                // The next point of the pair just seen (the sort is stable: in point order).
                currentImpulse[count - 1] += impulse;
                continue;
            }
            currentPairs[count] = pointPairs[k];
            currentImpulse[count] = impulse;
            currentSwapped[count] = s.contactBodies[2 * i] > s.contactBodies[2 * i + 1];
            count++;
        }
        return count;
    }

    private void emitPair(int kind, long tick, long pair, boolean swapped, double impulseNewtonSeconds) {
        int low = (int) (pair >>> 32);
        int high = (int) pair;
        record.putLong(0, tick);
        record.putInt(8, swapped ? high : low);
        record.putInt(12, swapped ? low : high);
        record.putDouble(16, impulseNewtonSeconds);
        contactTransmitter.transmit(kind, record, 0, RECORD_BYTES);
    }
}
