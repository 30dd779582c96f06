package org.hapticsd.protocol.stream;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * SCENE, server → client: the static description of the scene, sent after HELLO and again whenever the scene
 * changes (load, reset).
 *
 * @param revision    0..2^32-1, changes with every SCENE the server sends; STATE names the revision it belongs to
 * @param name        the scene's name
 * @param toolRadiusM radius of the haptic tool sphere (the tool's id in contacts is {@link StreamProtocol#TOOL_ID})
 * @param bodies      0..{@value StreamProtocol#MAX_BODIES} bodies with unique ids
 */
public record SceneMessage(long revision, String name, float toolRadiusM, List<Body> bodies) implements StreamMessage {
    public SceneMessage {
        Checks.u32("revision", revision);
        Checks.string("scene name", name);
        bodies = Checks.list("bodies", bodies, StreamProtocol.MAX_BODIES);
        Set<Integer> ids = new HashSet<>();
        for (Body b : bodies) {
            if (!ids.add(b.id())) {
                throw new StreamFormatException("body id " + b.id() + " appears twice");
            }
        }
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.SCENE;
    }
}
