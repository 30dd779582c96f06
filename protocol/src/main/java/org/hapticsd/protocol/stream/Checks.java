package org.hapticsd.protocol.stream;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Range checks shared by the message records' constructors, so a message that exists can always be encoded and
 * decodes to an equal message. They throw {@link StreamFormatException}: the decoders build records from wire
 * values, and one exception type keeps "never throws anything else" true without a catch-all.
 */
final class Checks {
    private Checks() {
    }

    static int u8(String field, int v) {
        if (v < 0 || v > 0xFF) {
            throw new StreamFormatException(field + " must be 0..255, was " + v);
        }
        return v;
    }

    static int u16(String field, int v) {
        if (v < 0 || v > 0xFFFF) {
            throw new StreamFormatException(field + " must be 0..65535, was " + v);
        }
        return v;
    }

    static long u32(String field, long v) {
        if (v < 0 || v > 0xFFFF_FFFFL) {
            throw new StreamFormatException(field + " must be 0..2^32-1, was " + v);
        }
        return v;
    }

    /** u64 fields are limited to 0..2^63-1 so Java longs and JSON readers never see a negative value. */
    static long u63(String field, long v) {
        if (v < 0) {
            throw new StreamFormatException(field + " must be 0..2^63-1, was " + Long.toUnsignedString(v));
        }
        return v;
    }

    static int bodyId(String field, int v) {
        if (v < 0 || v >= StreamProtocol.TOOL_ID) {
            throw new StreamFormatException(field + " must be a body id 0..65534, was " + v);
        }
        return v;
    }

    /** A body id or {@link StreamProtocol#TOOL_ID}. */
    static int bodyOrTool(String field, int v) {
        return u16(field, v);
    }

    static <T> T notNull(String field, T v) {
        if (v == null) {
            throw new StreamFormatException(field + " must not be null");
        }
        return v;
    }

    static <T> List<T> list(String field, List<T> list, int max) {
        notNull(field, list);
        if (list.size() > max) {
            throw new StreamFormatException(field + " has " + list.size() + " entries, more than " + max);
        }
        for (T item : list) {
            notNull(field + " entry", item);
        }
        return List.copyOf(list);
    }

    static String string(String field, String s) {
        utf8(field, s);
        return s;
    }

    /**
     * Strict UTF-8 (an unpaired surrogate is refused rather than replaced by '?', which would break round trips),
     * at most {@link StreamProtocol#MAX_STRING_BYTES} bytes.
     */
    static byte[] utf8(String field, String s) {
        notNull(field, s);
        try {
            ByteBuffer b = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .encode(CharBuffer.wrap(s));
            byte[] out = new byte[b.remaining()];
            b.get(out);
            if (out.length > StreamProtocol.MAX_STRING_BYTES) {
                throw new StreamFormatException(field + " is " + out.length + " UTF-8 bytes, more than "
                    + StreamProtocol.MAX_STRING_BYTES);
            }
            return out;
        } catch (CharacterCodingException e) {
            throw new StreamFormatException(field + " is not valid Unicode (unpaired surrogate)", e);
        }
    }

    static String decodeUtf8(String field, byte[] bytes, int offset) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        } catch (CharacterCodingException e) {
            throw new StreamFormatException(field + " at offset " + offset + " is not valid UTF-8", e);
        }
    }
}
