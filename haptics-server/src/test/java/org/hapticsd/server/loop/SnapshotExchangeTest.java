package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class SnapshotExchangeTest {

    @Test
    void shouldHandTheNewestSnapshotToAReader() {
        SnapshotExchange exchange = new SnapshotExchange(2);
        LoopSnapshot written = exchange.newSnapshot();
        LoopSnapshot read = exchange.newSnapshot();
        assertEquals(0, exchange.read(read));
        written.tick = 41;
        exchange.publish(written);
        written.tick = 42;
        written.bodyPose[13] = 7.5;
        exchange.publish(written);
        assertEquals(4, exchange.read(read), "two publishes, version 2 each");
        assertEquals(42, read.tick);
        assertEquals(7.5, read.bodyPose[13], 0.0);
    }

    @Test
    void shouldKeepTheNewestPublishesForAReaderThatAsksForOneByNumber() {
        SnapshotExchange exchange = new SnapshotExchange(1);
        LoopSnapshot written = exchange.newSnapshot();
        LoopSnapshot read = exchange.newSnapshot();
        assertFalse(exchange.read(1, read), "nothing published yet");
        for (long tick = 1; tick <= 20; tick++) {
            written.tick = 100 + tick;
            written.bodyPose[0] = tick;
            exchange.publish(written);
        }
        assertEquals(20, exchange.published());
        for (long publish = 20 - SnapshotExchange.HISTORY + 1; publish <= 20; publish++) {
            assertTrue(exchange.read(publish, read), "publish " + publish + " is kept");
            assertEquals(100 + publish, read.tick);
            assertEquals(publish, read.bodyPose[0], 0.0);
        }
        assertFalse(exchange.read(20 - SnapshotExchange.HISTORY, read), "its slot holds publish 20 now");
        assertFalse(exchange.read(21, read), "not published yet");
        assertFalse(exchange.read(0, read), "publishes count from 1");
    }

    @Test
    void shouldCopyTheDeviceHealthDeliveredForceAndEvents() {
        SnapshotExchange exchange = new SnapshotExchange(1);
        LoopSnapshot written = exchange.newSnapshot();
        written.deliveredForceN[0] = 1.5;
        written.deliveredForceN[1] = -2.25;
        written.deliveredForceN[2] = 3.125;
        written.deviceStatusFlags = 0x45;
        written.deviceConnected = true;
        written.deviceFault = org.hapticsd.device.DeviceFault.WATCHDOG;
        written.events = LoopEvents.CONTACT_BEGAN | LoopEvents.OVERRUN;
        exchange.publish(written);
        LoopSnapshot read = exchange.newSnapshot();
        exchange.read(read);
        assertEquals(1.5, read.deliveredForceN[0], 0.0);
        assertEquals(-2.25, read.deliveredForceN[1], 0.0);
        assertEquals(3.125, read.deliveredForceN[2], 0.0);
        assertEquals(0x45, read.deviceStatusFlags);
        assertTrue(read.deviceConnected);
        assertEquals(org.hapticsd.device.DeviceFault.WATCHDOG, read.deviceFault);
        assertEquals(LoopEvents.CONTACT_BEGAN | LoopEvents.OVERRUN, read.events);
    }

    @Test
    void shouldRefuseToCopyBetweenSnapshotsOfDifferentScenes() {
        assertThrows(IllegalArgumentException.class, () -> new LoopSnapshot(2).copyFrom(new LoopSnapshot(3)));
    }

    /**
     * The writer fills every field of each snapshot with its tick number; readers on other threads must never see
     * a mix of two ticks (a torn read), and the ticks they see never go backwards.
     */
    @Test
    void shouldNeverHandOutATornSnapshot() throws Exception {
        int bodies = 16;
        SnapshotExchange exchange = new SnapshotExchange(bodies);
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread[] readers = new Thread[2];
        for (int r = 0; r < readers.length; r++) {
            readers[r] = new Thread(() -> {
                LoopSnapshot copy = exchange.newSnapshot();
                long lastTick = -1;
                while (!stop.get() && failure.get() == null) {
                    if (exchange.read(copy) == 0) {
                        continue;
                    }
                    long tick = copy.tick;
                    if (tick < lastTick) {
                        failure.set("tick went backwards: " + lastTick + " -> " + tick);
                    }
                    lastTick = tick;
                    for (double v : copy.bodyPose) {
                        if (v != tick) {
                            failure.set("torn read: tick " + tick + " with pose value " + v);
                        }
                    }
                    if (copy.timeNs != tick || copy.toolPositionM[2] != tick) {
                        failure.set("torn read in scalars at tick " + tick);
                    }
                    // An older publish by number (an every-tick stream client's read): whole, or refused.
                    long older = exchange.published() - (SnapshotExchange.HISTORY - 2);
                    if (older > 0 && exchange.read(older, copy)) {
                        if (copy.tick != older || copy.timeNs != older || copy.bodyPose[bodies - 1] != older) {
                            failure.set("torn or wrong read of publish " + older + ": tick " + copy.tick);
                        }
                    }
                }
            });
            readers[r].start();
        }
        LoopSnapshot source = exchange.newSnapshot();
        for (long tick = 1; tick <= 300_000 && failure.get() == null; tick++) {
            source.tick = tick;
            source.timeNs = tick;
            source.toolPositionM[2] = tick;
            java.util.Arrays.fill(source.bodyPose, tick);
            exchange.publish(source);
        }
        stop.set(true);
        for (Thread reader : readers) {
            reader.join();
        }
        assertEquals(null, failure.get());
        LoopSnapshot last = exchange.newSnapshot();
        assertTrue(exchange.read(last) > 0);
        assertEquals(300_000, last.tick);
    }
}
