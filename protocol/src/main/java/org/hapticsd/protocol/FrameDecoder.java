package org.hapticsd.protocol;

/**
 * Streaming decoder: fed byte chunks of any size as they arrive from a serial port, it delivers every complete,
 * CRC-checked frame to a {@link FrameHandler} and counts everything it rejects. It never throws on any input and
 * allocates nothing after construction: its buffers are fixed at {@link Frame#MAX_ENCODED_BYTES}. Not
 * thread-safe: one decoder per reading thread.
 *
 * <p>Checks, in order, on each run of bytes ended by 0x00: length ≤ {@link Frame#MAX_ENCODED_BYTES} (else
 * oversize), valid COBS and at least header + CRC (else malformed), CRC (else CRC error), version 1 up to the
 * decoder's newest (else unsupported version), known type, the header version its type allows (HELLO and INFO
 * only 1), exact payload length of that version and field ranges (else malformed). Each delivered message says
 * which version's layout it was read with ({@link Message#version()}).
 *
 * <p>Resynchronisation: a run of garbage with no 0x00 in it merges with the frame after it. Because each type
 * has one fixed wire length, when the whole run fails the decoder also tries each type's encoded length as a
 * suffix of the run; a suffix that passes every check above is delivered and counted in {@link #resyncs()}. A
 * false accept needs a suffix to match length, version, type and CRC at once (about 2^-32 per attempt, five
 * attempts per bad run). Only the last {@link Frame#MAX_ENCODED_BYTES} bytes of an oversize run are kept, so a
 * frame after a long garbage run also decodes.
 *
 * <p>Sequence tracking, per {@link Direction}: with d = (seq − last) as a signed 16-bit value, d = 1 is in order,
 * d &gt; 1 a gap of d − 1 lost frames, d = 0 a duplicate, d &lt; 0 stale. Duplicate and stale frames are still
 * delivered, with {@link Message#isNewer()} false and without moving {@code last}. HELLO and INFO are always
 * newer and restart the count for their direction, so a peer that restarts at sequence 0 is followed.
 */
public final class FrameDecoder {
    private static final int OK = 0;
    private static final int MALFORMED = 1;
    private static final int CRC_ERROR = 2;
    private static final int UNSUPPORTED_VERSION = 3;
    private static final int NO_SEQUENCE = -1;

    private final FrameHandler handler;
    private final int maxVersion;
    /** Distinct encoded lengths of all types in every version spoken, longest first: the suffixes tried. */
    private final int[] encodedLengths;
    private final byte[] ring = new byte[Frame.MAX_ENCODED_BYTES];
    private final byte[] run = new byte[Frame.MAX_ENCODED_BYTES];
    private final byte[] frame = new byte[Frame.MAX_ENCODED_BYTES];
    private final Message[] byCode = new Message[256];
    private int ringWrite;
    private long runLength;

    private final int[] lastSequence = {NO_SEQUENCE, NO_SEQUENCE};
    private final long[] sequenceGaps = new long[2];
    private final long[] lostFrames = new long[2];
    private final long[] duplicates = new long[2];
    private final long[] staleFrames = new long[2];
    private long framesDecoded;
    private long crcErrors;
    private long malformedFrames;
    private MessageType lastRejectedType;
    private String lastRejection;
    private long oversizeFrames;
    private long unsupportedVersionFrames;
    private long resyncs;
    private long rejectedCalls;

    /** A decoder that speaks every version of this codec, 1 to {@link Frame#LATEST_VERSION}. */
    public FrameDecoder(FrameHandler handler) {
        this(handler, Frame.LATEST_VERSION);
    }

    /**
     * A decoder that speaks versions 1 to {@code maxVersion}: a frame of a later version counts as an
     * unsupported version (spec 2.4), as it would for a receiver built before that version existed.
     */
    public FrameDecoder(FrameHandler handler, int maxVersion) {
        if (handler == null) {
            throw new IllegalArgumentException("handler is required");
        }
        if (!MessageType.isSupported(maxVersion)) {
            throw new IllegalArgumentException("maxVersion must be 1.." + Frame.LATEST_VERSION + ", got " + maxVersion);
        }
        this.handler = handler;
        this.maxVersion = maxVersion;
        this.encodedLengths = encodedLengths(maxVersion);
        register(new Hello());
        register(new Force());
        register(new Heartbeat(Direction.HOST_TO_DEVICE));
        register(new HomingRequest());
        register(new Info());
        register(new State());
        register(new Heartbeat(Direction.DEVICE_TO_HOST));
        register(new HomingProgress());
        register(new Status());
        register(new Ping());
        register(new Pong());
    }

    private void register(Message message) {
        byCode[message.type().code()] = message;
    }

    /**
     * Consumes {@code length} bytes of {@code chunk} from {@code offset}, delivering each frame they complete. An
     * invalid range or null chunk is counted in {@link #rejectedCalls()} and ignored. Nothing in the bytes can
     * make this throw; an exception thrown by the handler itself propagates to the caller.
     */
    public void feed(byte[] chunk, int offset, int length) {
        if (chunk == null || offset < 0 || length < 0 || offset > chunk.length - length) {
            rejectedCalls++;
            return;
        }
        for (int i = offset; i < offset + length; i++) {
            byte b = chunk[i];
            if (b == Frame.DELIMITER) {
                if (runLength > 0) {
                    endOfRun();
                }
                runLength = 0;
                ringWrite = 0;
            } else {
                ring[ringWrite] = b;
                ringWrite = ringWrite + 1 == ring.length ? 0 : ringWrite + 1;
                runLength++;
            }
        }
    }

    private void endOfRun() {
        boolean oversize = runLength > ring.length;
        int n = oversize ? ring.length : (int) runLength;
        // Linearise the last n bytes: when oversize the oldest kept byte sits at ringWrite.
        int start = oversize ? ringWrite : 0;
        for (int k = 0; k < n; k++) {
            int j = start + k;
            run[k] = ring[j >= ring.length ? j - ring.length : j];
        }
        int result = oversize ? MALFORMED : tryFrame(0, n);
        if (result == OK) {
            return;
        }
        for (int encodedLength : encodedLengths) {
            if (encodedLength < n && tryFrame(n - encodedLength, encodedLength) == OK) {
                resyncs++;
                if (oversize) {
                    oversizeFrames++;
                }
                return;
            }
        }
        if (oversize) {
            oversizeFrames++;
        } else if (result == CRC_ERROR) {
            crcErrors++;
        } else if (result == UNSUPPORTED_VERSION) {
            unsupportedVersionFrames++;
        } else {
            malformedFrames++;
        }
    }

    /** Checks and, if valid, delivers the encoded frame run[offset, offset+length). */
    private int tryFrame(int offset, int length) {
        int frameBytes = Cobs.decode(run, offset, length, frame, 0);
        if (frameBytes < Frame.HEADER_BYTES + Frame.CRC_BYTES || frameBytes > Frame.MAX_FRAME_BYTES) {
            return MALFORMED;
        }
        int crcOffset = frameBytes - Frame.CRC_BYTES;
        if (Crc16Ccitt.compute(frame, 0, crcOffset) != LittleEndian.getU16(frame, crcOffset)) {
            return CRC_ERROR;
        }
        int version = LittleEndian.getU8(frame, 0);
        if (version < Frame.VERSION_1 || version > maxVersion) {
            return UNSUPPORTED_VERSION;
        }
        Message message = byCode[LittleEndian.getU8(frame, 1)];
        // HELLO and INFO are framed as version 1 in every session (spec 6.4); in another version they are malformed.
        if (message == null || message.type().frameVersion(version) != version
            || message.type().frameBytes(version) != frameBytes) {
            return MALFORMED;
        }
        message.setVersion(version);
        if (!message.readPayload(frame, Frame.HEADER_BYTES, version)) {
            lastRejectedType = message.type();
            lastRejection = message.rejection();
            return MALFORMED;
        }
        int sequence = LittleEndian.getU16(frame, 2);
        message.setReceived(sequence, trackSequence(message.type(), sequence));
        framesDecoded++;
        handler.onMessage(message);
        return OK;
    }

    private boolean trackSequence(MessageType type, int sequence) {
        int dir = type.direction().ordinal();
        int last = lastSequence[dir];
        if (last == NO_SEQUENCE || type == MessageType.HELLO || type == MessageType.INFO) {
            lastSequence[dir] = sequence;
            return true;
        }
        int d = (short) (sequence - last);
        if (d > 0) {
            if (d > 1) {
                sequenceGaps[dir]++;
                lostFrames[dir] += d - 1;
            }
            lastSequence[dir] = sequence;
            return true;
        }
        if (d == 0) {
            duplicates[dir]++;
        } else {
            staleFrames[dir]++;
        }
        return false;
    }

    /** Forgets the last sequence of both directions, e.g. when the port is reopened. */
    public void resetSequences() {
        lastSequence[0] = NO_SEQUENCE;
        lastSequence[1] = NO_SEQUENCE;
    }

    private static int[] encodedLengths(int maxVersion) {
        int[] lengths = new int[MessageType.values().length * maxVersion];
        int count = 0;
        for (int version = Frame.VERSION_1; version <= maxVersion; version++) {
            for (MessageType type : MessageType.values()) {
                int length = type.wireBytes(type.frameVersion(version)) - 1;
                boolean seen = false;
                for (int k = 0; k < count; k++) {
                    seen |= lengths[k] == length;
                }
                if (!seen) {
                    lengths[count++] = length;
                }
            }
        }
        int[] distinct = java.util.Arrays.copyOf(lengths, count);
        java.util.Arrays.sort(distinct);
        for (int k = 0; k < count / 2; k++) {
            int t = distinct[k];
            distinct[k] = distinct[count - 1 - k];
            distinct[count - 1 - k] = t;
        }
        return distinct;
    }

    /** Total bytes of buffer this decoder holds; fixed at construction. */
    public int bufferBytes() {
        return ring.length + run.length + frame.length;
    }

    public long framesDecoded() {
        return framesDecoded;
    }

    public long crcErrors() {
        return crcErrors;
    }

    /** Bad COBS, too short, unknown type, wrong length for its type, or a field out of range. */
    public long malformedFrames() {
        return malformedFrames;
    }

    /**
     * The last frame refused for a field outside its range: its type and the range it broke (e.g. "INFO:
     * workspaceMaxM below workspaceMinM"), or null if none was, or the type does not say which.
     */
    public String lastRejection() {
        return lastRejection == null ? null : lastRejectedType + ": " + lastRejection;
    }

    /** Runs longer than {@link Frame#MAX_ENCODED_BYTES} between delimiters. */
    public long oversizeFrames() {
        return oversizeFrames;
    }

    public long unsupportedVersionFrames() {
        return unsupportedVersionFrames;
    }

    /** Frames recovered from the end of a run that started with garbage. */
    public long resyncs() {
        return resyncs;
    }

    /** {@link #feed} calls with a null chunk or a range outside it. */
    public long rejectedCalls() {
        return rejectedCalls;
    }

    /** Number of jumps forward by more than one. */
    public long sequenceGaps(Direction direction) {
        return sequenceGaps[direction.ordinal()];
    }

    /** Sum over gaps of the frames skipped. */
    public long lostFrames(Direction direction) {
        return lostFrames[direction.ordinal()];
    }

    public long duplicates(Direction direction) {
        return duplicates[direction.ordinal()];
    }

    public long staleFrames(Direction direction) {
        return staleFrames[direction.ordinal()];
    }
}
