package org.hapticsd.server.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.hapticsd.client.StreamClient;
import org.hapticsd.client.StreamListener;
import org.hapticsd.client.StreamRecordingWriter;
import org.hapticsd.protocol.stream.Body;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.FaultCode;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.StreamMessage;
import org.hapticsd.protocol.stream.StreamProtocol;

/**
 * {@code hapticsd watch}'s listener, on the stream client's thread: records every message, and prints a line when a
 * session begins, the scene changes or the connection ends, and with {@code --events} one a stream event, its bodies
 * named from the last SCENE. A failed recording write stops the recording (the
 * first error is kept for the exit status) but not the watching.
 */
final class WatchListener implements StreamListener {
    private final PrintWriter out;
    private final StreamRecordingWriter recording;
    private volatile String recordingError;
    private static final String NO_ATTEMPT = "no attempt finished";
    private volatile String lastDisconnect = NO_ATTEMPT;
    private boolean connected;
    private final boolean printEvents;
    /** The last SCENE's body names by id. */
    private final Map<Integer, String> bodyNames = new HashMap<>();

    WatchListener(PrintWriter out, StreamRecordingWriter recording, boolean printEvents) {
        this.out = out;
        this.recording = recording;
        this.printEvents = printEvents;
    }

    @Override
    public void onMessage(StreamMessage message) {
        if (printEvents && message instanceof EventsMessage events) {
            for (StreamEvent event : events.events()) {
                out.println("event tick " + event.tick() + ": " + describe(event));
            }
            out.flush();
        }
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
        bodyNames.clear();
        for (Body body : scene.bodies()) {
            bodyNames.put(body.id(), body.name());
        }
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

    /** One event as a line: its kind and details, bodies by name (the web page's events list says the same). */
    String describe(StreamEvent event) {
        if (event instanceof StreamEvent.ContactBegan e) {
            return "CONTACT_BEGAN " + pair(e.bodyA(), e.bodyB());
        }
        if (event instanceof StreamEvent.ContactEnded e) {
            return "CONTACT_ENDED " + pair(e.bodyA(), e.bodyB());
        }
        if (event instanceof StreamEvent.Impact e) {
            return String.format(Locale.ROOT, "IMPACT %s %.4f N·s", pair(e.bodyA(), e.bodyB()),
                e.impulseNewtonSeconds());
        }
        if (event instanceof StreamEvent.SafetyChanged e) {
            return "SAFETY_CHANGED " + e.from() + " → " + e.to() + (e.fault() == FaultCode.NONE ? "" : " (" + e.fault()
                + ")");
        }
        if (event instanceof StreamEvent.PhysicsOverBudget e) {
            return String.format(Locale.ROOT, "PHYSICS_OVER_BUDGET step p99 %d µs, budget %d µs", e.stepP99Ns() / 1000,
                e.budgetNs() / 1000);
        }
        if (event instanceof StreamEvent.PhysicsWithinBudget e) {
            return String.format(Locale.ROOT, "PHYSICS_WITHIN_BUDGET step p99 %d µs, budget %d µs",
                e.stepP99Ns() / 1000, e.budgetNs() / 1000);
        }
        if (event instanceof StreamEvent.ContactsDropped e) {
            return "CONTACTS_DROPPED " + e.droppedPairs() + " pair(s), " + e.droppedPoints() + " point(s)";
        }
        if (event instanceof StreamEvent.ImpulseCollision e) {
            return String.format(Locale.ROOT, "IMPULSE_COLLISION %s (%s) IP %.4f N·s, H %.2f N, W %.1f ms, e %.2f",
                pair(e.bodyA(), e.bodyB()), e.mode(), e.impulseNewtonSeconds(), e.heightN(), e.durationS() * 1e3,
                e.elasticity());
        }
        // DEVICE_CONNECTED, DEVICE_DISCONNECTED: the kind says it all.
        return event instanceof StreamEvent.DeviceConnected ? "DEVICE_CONNECTED" : "DEVICE_DISCONNECTED";
    }

    private String pair(int a, int b) {
        return name(a) + " / " + name(b);
    }

    private String name(int id) {
        return id == StreamProtocol.TOOL_ID ? "tool" : bodyNames.getOrDefault(id, "#" + id);
    }

    String recordingError() {
        return recordingError;
    }

    /** Why the last connection or attempt ended; for a stop that cut an attempt short, why the one before failed. */
    String lastDisconnect() {
        return lastDisconnect;
    }
}
