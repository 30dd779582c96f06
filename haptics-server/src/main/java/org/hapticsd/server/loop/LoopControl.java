package org.hapticsd.server.loop;

import org.hapticsd.device.HapticDevice;
import org.hapticsd.server.safety.SafetyLayer;

/** What a {@link LoopCommand} may act on. Implemented by the loop; used only on the loop thread. */
public interface LoopControl {

    SafetyLayer safety();

    HapticDevice device();
}
