package org.hapticsd.device.link;

import java.io.IOException;

/** Opens a {@link ByteLink}; called again after the link breaks, which is how a driver reconnects. */
public interface LinkConnector {

    /** Opens a new link; throws with a message naming the endpoint and the reason when it cannot. */
    ByteLink connect() throws IOException;

    /** The endpoint, as given on the command line ({@code serial:PORT:BAUD}, {@code tcp:HOST:PORT}). */
    String name();
}
