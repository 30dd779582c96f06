package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamListener;
import org.hapticsd.client.StreamRecordingWriter;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StreamMessage;

/**
 * {@code hapticsd watch}'s listener, on the stream client's thread: records every message, and prints a line when a
 * session begins, the scene changes or the connection ends. A failed recording write stops the recording (the
 * first error is kept for the exit status) but not the watching.
 */
final class WatchListener implements StreamListener {
    private final PrintWriter out;
    private final StreamRecordingWriter recording;
    private volatile String recordingError;
    private static final String NO_ATTEMPT = "no attempt finished";
    private volatile String lastDisconnect = NO_ATTEMPT;
    private boolean connected;

    WatchListener(PrintWriter out, StreamRecordingWriter recording) {
        this.out = out;
        this.recording = recording;
    }

    @Override
    public void onMessage(StreamMessage message) {
        if (recording == null || recordingError != null) {
            return;
        }
        try {
            recording.write(message);
        } catch (IOException e) {
            recordingError = "write failed: " + e.getMessage();
        }
    }

    @Override
    public void onConnected(HelloMessage hello) {
        connected = true;
        out.println("connected: server " + hello.serverVersion() + ", protocol " + hello.protocolVersion()
            + ", tick rate " + hello.tickRateHz() + " Hz");
        out.flush();
    }

    @Override
    public void onScene(SceneMessage scene) {
        out.println("scene '" + scene.name() + "' (revision " + scene.revision() + ", " + scene.bodies().size()
            + " bodies)");
        out.flush();
    }

    /** Printed when a session ends, or when a failed attempt fails differently from the one before. */
    @Override
    public void onDisconnected(String reason) {
        if (connected || !reason.equals(lastDisconnect)) {
            out.println("disconnected: " + reason);
            out.flush();
        }
        // watch's own stop cutting the next attempt short says nothing of why the attempts before it failed.
        if (connected || !reason.equals(StreamClient.CLOSED_BY_CLIENT) || lastDisconnect.equals(NO_ATTEMPT)) {
            lastDisconnect = reason;
        }
        connected = false;
    }

    String recordingError() {
        return recordingError;
    }

    /** Why the last connection or attempt ended; for a stop that cut an attempt short, why the one before failed. */
    String lastDisconnect() {
        return lastDisconnect;
    }
}
