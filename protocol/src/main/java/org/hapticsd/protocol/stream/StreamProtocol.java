package org.hapticsd.protocol.stream;

/**
 * Constants of the visualization stream protocol (docs/stream-protocol.md): version, header, framing limits and
 * list/string maximums. Every limit here is also in the spec's section "Limits".
 */
public final class StreamProtocol {
    /**
     * Protocol version written in every header; a decoder rejects any other value. Version 2 added event kind 10
     * (IMPULSE_COLLISION) and the contact-mode table; section "Versions" of the spec lists the changes.
     */
    public static final int VERSION = 2;
    /** version u8, type u8, reserved u16. */
    public static final int HEADER_BYTES = 4;
    /** Raw TCP: each message is preceded by its length as a u32 little-endian (not counting the prefix). */
    public static final int TCP_LENGTH_PREFIX_BYTES = 4;
    /** Largest server → client message, header included: 1 MiB (a SCENE with meshes is the large one). */
    public static final int MAX_SERVER_MESSAGE_BYTES = 1 << 20;
    /** Largest client → server message: 64 KiB, so a client cannot make the server buffer much. */
    public static final int MAX_CLIENT_MESSAGE_BYTES = 1 << 16;
    /** Largest string, in UTF-8 bytes (its u16 length prefix could say 65535). */
    public static final int MAX_STRING_BYTES = 1024;
    public static final int MAX_BODIES = 4096;
    public static final int MAX_POSES = MAX_BODIES;
    public static final int MAX_CONTACTS = 4096;
    public static final int MAX_EVENTS = 1024;
    public static final int MAX_HULL_VERTICES = 4096;
    public static final int MAX_MESH_VERTICES = 65535;
    public static final int MAX_MESH_TRIANGLES = 131072;
    /** Nodes of a deformable body (SCENE shape 7), and of all deformable bodies in one STATE together. */
    public static final int MAX_DEFORMABLE_NODES = 32768;
    /** Edges and triangles of a deformable body's SCENE shape, each. */
    public static final int MAX_DEFORMABLE_ELEMENTS = 131072;
    /** Deformable bodies in a STATE. */
    public static final int MAX_DEFORMABLES = 4096;
    /** Body id that stands for the haptic tool in contacts and events; no SCENE body may use it. */
    public static final int TOOL_ID = 0xFFFF;

    private StreamProtocol() {
    }

    /** The size limit for messages of this direction. */
    public static int maxMessageBytes(boolean serverToClient) {
        return serverToClient ? MAX_SERVER_MESSAGE_BYTES : MAX_CLIENT_MESSAGE_BYTES;
    }
}
