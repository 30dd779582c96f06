package org.hapticsd.server.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hapticsd.protocol.stream.FaultCode;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.junit.jupiter.api.Test;

/**
 * The stream protocol's safety codes are its own enums (the protocol module knows no server classes); the server
 * maps its states onto them by name. This pins the two together: a state added on one side only would otherwise
 * fail at run time, in a STATE frame, instead of here.
 */
class StreamCodesTest {
    @Test
    void shouldHaveAStreamCodeForEverySafetyStateAndFaultInTheSameOrder() {
        assertEquals(SafetyState.values().length, SafetyCode.values().length);
        for (SafetyState state : SafetyState.values()) {
            assertEquals(state.ordinal(), SafetyCode.valueOf(state.name()).code(), state.name());
        }
        assertEquals(SafetyFault.values().length, FaultCode.values().length);
        for (SafetyFault fault : SafetyFault.values()) {
            assertEquals(fault.ordinal(), FaultCode.valueOf(fault.name()).code(), fault.name());
        }
    }
}
