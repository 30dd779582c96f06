package org.hapticsd.server.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LoopEventsTest {

    /** The names are what CSVs and summaries print: each constant's name must sit at its own bit. */
    @Test
    void shouldNameEveryBitAfterItsConstant() throws Exception {
        List<String> constants = new ArrayList<>();
        for (Field field : LoopEvents.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class
                && !field.getName().equals("COUNT")) {
                int bit = field.getInt(null);
                assertEquals(1, Integer.bitCount(bit), field.getName() + " is a single bit");
                assertEquals(field.getName(), LoopEvents.name(Integer.numberOfTrailingZeros(bit)));
                constants.add(field.getName());
            }
        }
        assertEquals(LoopEvents.COUNT, constants.size(), "bits 0 to COUNT - 1 are all defined, once each");
    }

    @Test
    void shouldListTheNamesOfTheSetBitsLowestFirst() {
        assertEquals("", LoopEvents.appendNames(0, new StringBuilder()).toString());
        assertEquals("DEVICE_CONNECTED|CONTACT_BEGAN|STAGE_ERROR", LoopEvents.appendNames(
            LoopEvents.STAGE_ERROR | LoopEvents.CONTACT_BEGAN | LoopEvents.DEVICE_CONNECTED, new StringBuilder())
            .toString());
        assertEquals("x:OVERRUN", LoopEvents.appendNames(LoopEvents.OVERRUN, new StringBuilder("x:")).toString());
    }

    /** The first tick compares against a device that was not connected yet: the sim stylus is seen connecting. */
    @Test
    void shouldReportTheDeviceConnectedOnTheFirstTickAndNotAgain() throws Exception {
        LoopFixture f = LoopFixture.withSimulatedStylus();
        f.tick();
        assertEquals(LoopEvents.DEVICE_CONNECTED, f.snapshot().events);
        f.ticks(10);
        assertEquals(0, f.snapshot().events, "free space, gate still shut: nothing happens");
    }
}
