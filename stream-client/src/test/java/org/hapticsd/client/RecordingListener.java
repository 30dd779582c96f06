package org.hapticsd.client;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateMessage;

/** Puts each typed callback into one queue as text ("connected", "scene 7", "state 12", "disconnected: why"). */
class RecordingListener implements StreamListener {
    final BlockingQueue<String> calls = new LinkedBlockingQueue<>();
    volatile Thread thread;

    @Override
    public void onConnected(HelloMessage hello) {
        thread = Thread.currentThread();
        calls.add("connected " + hello.serverVersion());
    }

    @Override
    public void onScene(SceneMessage scene) {
        calls.add("scene " + scene.revision());
    }

    @Override
    public void onState(StateMessage state) {
        calls.add("state " + state.tick());
    }

    @Override
    public void onEvents(EventsMessage events) {
        calls.add("events " + events.events().size());
    }

    @Override
    public void onDisconnected(String reason) {
        calls.add("disconnected: " + reason);
    }

    /** The next call, or "(none within N ms)". */
    String next(long timeoutMs) throws InterruptedException {
        String call = calls.poll(timeoutMs, TimeUnit.MILLISECONDS);
        return call == null ? "(none within " + timeoutMs + " ms)" : call;
    }
}
