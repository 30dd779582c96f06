package org.hapticsd.server.net;

import org.hapticsd.protocol.stream.StateEncoder;
import org.joml.Vector3d;

/**
 * One client's binary STATE, rewritten in place for every message (docs/performance.md, *Stream publishing*): the
 * encoder's buffer and the scratch the frames need, used on that client's event loop only. A STATE made through it
 * allocates nothing once the buffer has grown to the scene's message.
 */
public final class StateBuffer {
    final StateEncoder encoder = new StateEncoder();
    final Vector3d scratch = new Vector3d();
    private byte[] bytes = new byte[0];
    private int length;

    /** The encoder's last finished message is the STATE. */
    void encoded() {
        bytes = encoder.array();
        length = encoder.length();
    }

    /** A whole message made elsewhere is the STATE. */
    void hold(byte[] message) {
        bytes = message;
        length = message.length;
    }

    /** The STATE is {@code bytes()[0, length())}. */
    public byte[] bytes() {
        return bytes;
    }

    public int length() {
        return length;
    }
}
