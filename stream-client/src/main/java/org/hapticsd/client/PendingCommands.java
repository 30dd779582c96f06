package org.hapticsd.client;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.hapticsd.protocol.stream.AckMessage;

/**
 * Commands sent and not yet acknowledged, by command id. Used only on the client's I/O thread, so a plain map.
 * Ids count up from 1 and wrap within the protocol's u32, skipping ids still pending; the server echoes them in the
 * ACK and gives them no other meaning.
 */
final class PendingCommands {
    private static final long MAX_ID = 0xFFFF_FFFFL;

    private record Pending(CompletableFuture<AckMessage> future, ScheduledFuture<?> timeout) {
    }

    private final Map<Long, Pending> byId = new HashMap<>();
    private long lastId;

    /** A fresh id not pending now. */
    long nextId() {
        do {
            lastId = lastId == MAX_ID ? 1 : lastId + 1;
        } while (byId.containsKey(lastId));
        return lastId;
    }

    void add(long id, CompletableFuture<AckMessage> future, ScheduledFuture<?> timeout) {
        byId.put(id, new Pending(future, timeout));
    }

    /** Completes the command the ACK answers; false if none is pending with its id. */
    boolean acknowledge(AckMessage ack) {
        Pending p = byId.remove(ack.commandId());
        if (p == null) {
            return false;
        }
        p.timeout().cancel(false);
        p.future().complete(ack);
        return true;
    }

    /** Fails one command (its write failed, or it timed out). */
    void fail(long id, Throwable cause) {
        Pending p = byId.remove(id);
        if (p != null) {
            p.timeout().cancel(false);
            p.future().completeExceptionally(cause);
        }
    }

    /** Fails every pending command: the connection they were sent on is gone, and so is their ACK. */
    void failAll(Throwable cause) {
        List<Pending> all = new ArrayList<>(byId.values());
        byId.clear();
        for (Pending p : all) {
            p.timeout().cancel(false);
            p.future().completeExceptionally(cause);
        }
    }

    int size() {
        return byId.size();
    }
}
