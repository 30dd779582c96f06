package org.hapticsd.server.net;

import java.util.List;

/**
 * What the build of the scene of revision {@code sceneRevision} found legal but likely not meant, one line each: the
 * builder's own warnings and the tool-stiffness checks against the device the loop drives (docs/scenes.md, "The
 * server's check"). The server logs them; {@code /api/warnings} gives them to a page that loaded the scene remotely.
 */
public record SceneWarnings(long sceneRevision, List<String> warnings) {
    /** A server that serves no scene commands. */
    public static final SceneWarnings NONE = new SceneWarnings(0, List.of());

    public SceneWarnings {
        warnings = List.copyOf(warnings);
    }
}
