package org.hapticsd.server.net;

import java.util.List;

/**
 * The scenes LOAD_SCENE may load by name (docs/stream-protocol.md, 4.7): {@code loading} is false when the server was
 * started without a scene directory, which refuses every LOAD_SCENE; {@code names} are the directory's scene files
 * without their extension, sorted.
 */
public record SceneCatalog(boolean loading, List<String> names) {
    /** A server that loads no scene by name. */
    public static final SceneCatalog NONE = new SceneCatalog(false, List.of());

    public SceneCatalog {
        names = List.copyOf(names);
    }
}
