package org.hapticsd.protocol;

/**
 * Receives each complete, CRC-checked frame from a {@link FrameDecoder}. The message is the decoder's reusable
 * instance for its type: valid only during the call; copy what you need to keep.
 */
@FunctionalInterface
public interface FrameHandler {
    void onMessage(Message message);
}
