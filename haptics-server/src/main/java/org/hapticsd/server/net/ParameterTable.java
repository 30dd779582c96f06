package org.hapticsd.server.net;

import java.util.List;

/**
 * What SET_PARAMETER accepts now: the parameters of the scene of revision {@code sceneRevision} (the SCENE message's,
 * 0 when the server serves no scene commands), in a stable order.
 */
public record ParameterTable(long sceneRevision, List<SettableParameter> parameters) {
    /** A server whose SET_PARAMETER accepts nothing. */
    public static final ParameterTable NONE = new ParameterTable(0, List.of());

    public ParameterTable {
        parameters = List.copyOf(parameters);
    }
}
