package org.hapticsd.server.cli;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The garbage collector's pauses while a run's loop runs, as the JVM reports them (one notification per collection):
 * a pause stops every Java thread, the loop's included, so a tick due in it wakes late, and the end report's
 * {@code woken late} overruns then may be the collector's rather than the host's. Counts the stop-the-world events
 * (G1's young, mixed, full collections and remark/cleanup; ZGC's and Shenandoah's pauses), not the concurrent cycles
 * ({@code end of GC cycle}), which run beside the loop. The JVM gives each duration in whole milliseconds: a pause
 * under 1 ms reads 0. Notifications arrive on the JVM's notification thread, never the loop's.
 */
final class CollectorPauses implements AutoCloseable {
    /** The action of a concurrent collector's whole cycle (ZGC, Shenandoah): not a pause. */
    static final String CYCLE_ACTION = "end of GC cycle";

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener = this::onNotification;
    private final Map<String, Long> countByCollector = new TreeMap<>();
    private long count;
    private long longestMs;
    private long totalMs;

    /** Listens to every collector of this JVM from now until {@link #close}. */
    static CollectorPauses start() {
        CollectorPauses pauses = new CollectorPauses();
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(pauses.listener, null, null);
                pauses.emitters.add(emitter);
            }
        }
        return pauses;
    }

    private void onNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        if (isPause(info.getGcAction())) {
            record(info.getGcName(), info.getGcInfo().getDuration());
        }
    }

    /** Whether a collection whose action is {@code action} stopped the Java threads. */
    static boolean isPause(String action) {
        return !CYCLE_ACTION.equals(action);
    }

    /** One pause of {@code durationMs} by the collector named {@code collector}. */
    synchronized void record(String collector, long durationMs) {
        count++;
        longestMs = Math.max(longestMs, durationMs);
        totalMs += durationMs;
        countByCollector.merge(collector, 1L, Long::sum);
    }

    synchronized long count() {
        return count;
    }

    /** The longest pause, whole milliseconds (0: none, or all under 1 ms). */
    synchronized long longestMs() {
        return longestMs;
    }

    synchronized long totalMs() {
        return totalMs;
    }

    /**
     * The end report's line, e.g. {@code collector pauses: 2 (G1 Young Generation 2), longest 18 ms, 34 ms in all},
     * {@code collector pauses: 30 (ZGC Pauses 30), each under 1 ms}, or {@code collector pauses: none}.
     */
    synchronized String summary() {
        if (count == 0) {
            return "collector pauses: none";
        }
        StringBuilder b = new StringBuilder("collector pauses: ").append(count).append(" (");
        String separator = "";
        for (Map.Entry<String, Long> e : countByCollector.entrySet()) {
            b.append(separator).append(e.getKey()).append(' ').append(e.getValue());
            separator = ", ";
        }
        b.append(')');
        if (longestMs == 0) {
            return b.append(count == 1 ? ", under 1 ms" : ", each under 1 ms").toString();
        }
        return b.append(String.format(Locale.ROOT, ", longest %d ms, %d ms in all", longestMs, totalMs)).toString();
    }

    /** Stops listening; the counts stay. */
    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException alreadyGone) {
                // Removed before: nothing to do.
            }
        }
        emitters.clear();
    }
}
