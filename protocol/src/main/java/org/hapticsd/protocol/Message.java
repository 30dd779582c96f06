package org.hapticsd.protocol;

/**
 * A mutable message: the encoder reads it, the decoder fills a preallocated instance of each type and hands it
 * to the {@link FrameHandler}. Values are plain data; no method here decides what a value means for the device
 * (codecs carry no application logic).
 */
public abstract class Message {
    private int sequence;
    private boolean newer;
    private int version = Frame.VERSION_1;

    public abstract MessageType type();

    /** Writes exactly {@code type().payloadBytes(version)} bytes at {@code offset}, in {@code version}'s layout. */
    abstract void writePayload(byte[] dst, int offset, int version);

    /**
     * Reads exactly {@code type().payloadBytes(version)} bytes at {@code offset}, in the layout of {@code version}.
     *
     * @return false if a field is outside its documented range (the frame then counts as malformed and the
     *     contents of this instance are unspecified)
     */
    abstract boolean readPayload(byte[] src, int offset, int version);

    /**
     * Which documented range the last {@link #readPayload} that returned false broke, for the people who write
     * firmware; null when the type does not say. A constant string: decoding allocates nothing.
     */
    String rejection() {
        return null;
    }

    /** Header version of the frame this message was decoded from (1 or 2). */
    public int version() {
        return version;
    }

    void setVersion(int version) {
        this.version = version;
    }

    /** Sequence number of the frame this message was decoded from (0..65535). */
    public int sequence() {
        return sequence;
    }

    /**
     * True if this frame's sequence is newer than the last one seen in its direction (or it is the first, or a
     * HELLO / INFO, which restart the count). A device ignores a FORCE for which this is false.
     */
    public boolean isNewer() {
        return newer;
    }

    void setReceived(int sequence, boolean newer) {
        this.sequence = sequence;
        this.newer = newer;
    }
}
