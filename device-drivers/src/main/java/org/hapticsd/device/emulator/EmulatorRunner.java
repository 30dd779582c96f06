package org.hapticsd.device.emulator;

import java.io.IOException;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.hapticsd.device.ThreadPolicy;
import org.hapticsd.device.link.ByteLink;
import org.hapticsd.device.link.LinkConnector;
import org.hapticsd.device.link.PeerClosedException;

/**
 * Runs an {@link EmulatedDevice} on a real link: a thread that feeds it the bytes the host sent, polls it on the
 * wall clock, and writes what it sends. This is the firmware's main loop; the device model itself stays
 * single-threaded and time-injected, and every other thread reaches it through {@link #execute}.
 *
 * <p>Faults a test engineer injects, as a real device would suffer them:
 * <ul>
 *   <li>{@link #setUnplugged}: the cable is out. Nothing is written, and bytes that arrive meanwhile are thrown
 *       away (a real unplugged device never sees them); the firmware keeps running on its clock, so its own
 *       watchdog zeroes the output and after 500 ms its session ends.
 *   <li>{@link #injectGarbage}: bytes written to the line before the next frames, as noise on a cable would be.
 *   <li>Stalls on the host side need nothing here: the firmware's watchdog sees the FORCE frames stop.
 * </ul>
 *
 * <p>When the link breaks (the host closed its TCP connection, the port failed) the runner opens it again with
 * its connector; on TCP that waits for the next host (the acceptor's timeout lets tasks run meanwhile). A host
 * that leaves without a word is noticed when a write fails (while streaming) or, while the device has nothing to
 * send, by a read of up to the link's read timeout every {@link #LINK_CHECK_INTERVAL_NS}: only a read sees a TCP
 * peer's close, and reading only while not streaming keeps that wait out of the STATE schedule. Without it a host
 * that connected and left before HELLO would hold the single TCP slot for good.
 */
public final class EmulatorRunner implements EmulatorControl, AutoCloseable {
    /** What happened to the link or the session, as the firmware thread saw it. */
    public enum EventKind {
        LINK_OPENED,
        /** The host closed the link: end of stream, or a write refused because it had closed. */
        LINK_CLOSED_BY_PEER,
        /** The link failed; the event's detail says how. */
        LINK_FAILED,
        /** A HELLO started a session; detail is the rate, Hz. */
        SESSION_STARTED,
        /**
         * A HELLO came while a session ran: that session ended and a new one started (a host that reconnected
         * within the liveness timeout, or one that repeats HELLO); detail is the new session's rate, Hz.
         */
        SESSION_RESTARTED,
        /** The session ended: the host went silent for the liveness timeout. */
        SESSION_ENDED
    }

    /**
     * One event, with the link it happened on ({@code null} for a session event with no link open) and, for a
     * failure, the error. Events are queued in order by the firmware thread, so a log built from them names the
     * link each one belongs to, which sampling {@link #linkName()} and {@link #lastError()} cannot: two links can
     * come and go between two samples.
     */
    public record Event(EventKind kind, String linkName, String detail) {
    }

    /** Events kept for {@link #pollEvent()}; more are dropped (and counted) when no one drains them. */
    static final int EVENT_CAPACITY = 256;

    /** How often the firmware loop runs: a quarter of a 1 kHz period keeps STATE within 250 µs of schedule. */
    public static final long DEFAULT_POLL_INTERVAL_NS = 250_000L;
    /** A cycle later than this after the previous one counts as late: 2 ms, under half the 5 ms watchdog. */
    public static final long LATE_CYCLE_NS = 2_000_000L;
    private static final long RECONNECT_INTERVAL_NS = 100_000_000L;
    /** How often an idle link is read to notice a host that left: a quarter of the device's 500 ms liveness. */
    public static final long LINK_CHECK_INTERVAL_NS = 125_000_000L;

    private final EmulatedDevice device;
    private final LinkConnector connector;
    private final LongSupplier clockNs;
    private final long pollIntervalNs;
    private final Queue<Consumer<EmulatedDevice>> tasks = new ConcurrentLinkedQueue<>();
    private final byte[] rx = new byte[4096];
    private final byte[] tx = new byte[EmulatedDevice.MAX_POLL_BYTES];
    private final Thread thread;
    private final Queue<Event> events = new ArrayBlockingQueue<>(EVENT_CAPACITY);
    private volatile long eventsDropped;
    private long sessionsStartedSeen;
    private long sessionsEndedSeen;

    private volatile boolean running = true;
    private volatile boolean unplugged;
    private volatile byte[] garbage;
    private volatile ByteLink link;
    private volatile String lastError;
    private volatile long linksOpened;
    private volatile long bytesDiscarded;
    private long lastCycleNs = Long.MIN_VALUE;
    private volatile long maxCycleGapNs;
    private volatile long lateCycles;
    private long nextLinkCheckNs;
    private volatile int sessionRateHz;
    private int publishedSessionRateHz;
    // Host timing as the firmware sees it: late cycles, and gaps between FORCE arrivals while connected.
    private static final int GAP_LOG_CAPACITY = 4096;
    private final GapLog lateCycleLog = new GapLog(LATE_CYCLE_NS, GAP_LOG_CAPACITY);
    private final GapLog forceGapLog = new GapLog(LATE_CYCLE_NS, GAP_LOG_CAPACITY);
    private long forcesSeen;
    private long forceGapSessions = -1;
    private boolean forceGapOpen;

    public EmulatorRunner(EmulatedDevice device, LinkConnector connector) {
        this(device, connector, System::nanoTime, DEFAULT_POLL_INTERVAL_NS);
    }

    public EmulatorRunner(EmulatedDevice device, LinkConnector connector, LongSupplier clockNs,
                          long pollIntervalNs) {
        if (pollIntervalNs <= 0) {
            throw new IllegalArgumentException("pollIntervalNs must be > 0, got " + pollIntervalNs);
        }
        this.device = device;
        this.connector = connector;
        this.clockNs = clockNs;
        this.pollIntervalNs = pollIntervalNs;
        this.thread = new Thread(this::run, "hapticsd-emulator");
        this.thread.setDaemon(true);
        // Firmware runs on its own microcontroller; on a shared host its thread must not queue behind others.
        this.thread.setPriority(Thread.MAX_PRIORITY);
    }

    public EmulatorRunner start() {
        thread.start();
        return this;
    }

    /**
     * The real-time FIFO priority the firmware thread takes when it starts (0: the normal policy): a device's
     * microcontroller never waits for other programs, and on a loaded host a late firmware cycle is the emulator's
     * fault, not the host's. Set before {@link #start()}.
     */
    public EmulatorRunner withRtPriority(int priority) {
        this.rtPriority = ThreadPolicy.checkedPriority(priority);
        return this;
    }

    /**
     * The firmware thread's scheduling once it has started: "real-time FIFO priority N", "normal", or "normal: real-time
     * priority refused (why)".
     */
    public String threadPolicy() {
        return ThreadPolicy.describe(rtPriority, threadPolicyRefusal);
    }

    private volatile int rtPriority;
    private volatile String threadPolicyRefusal;

    /** Runs {@code task} on the firmware thread before its next poll (moving the hand, reading counters). */
    public void execute(Consumer<EmulatedDevice> task) {
        tasks.add(task);
    }

    /** Evaluates {@code query} on the firmware thread and waits for the answer (at most 1 s). */
    public <T> T query(Function<EmulatedDevice, T> query) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        execute(d -> answer.complete(query.apply(d)));
        try {
            return answer.get(1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("emulator thread did not answer: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while querying the emulator", e);
        }
    }

    @Override
    public void setUnplugged(boolean unplugged) {
        this.unplugged = unplugged;
    }

    public boolean isUnplugged() {
        return unplugged;
    }

    @Override
    public void injectGarbage(byte[] bytes) {
        this.garbage = bytes.clone();
    }

    /** Whether a host link is open now. */
    public boolean isLinked() {
        return link != null;
    }

    /**
     * Firmware cycles that came more than {@link #LATE_CYCLE_NS} after the previous one: this thread was not
     * scheduled in time. A real device's firmware is never late like this; when this count is not zero, a watchdog
     * trip may be the emulator's own lateness rather than the host's.
     */
    public long lateCycles() {
        return lateCycles;
    }

    /** The longest time between two firmware cycles, ns. */
    public long maxCycleGapNs() {
        return maxCycleGapNs;
    }

    /** How many times a link was opened (TCP: hosts accepted). */
    public long linksOpened() {
        return linksOpened;
    }

    /** Bytes that arrived while unplugged and were dropped. */
    public long bytesDiscarded() {
        return bytesDiscarded;
    }

    /** The open link's name ({@code tcp:127.0.0.1:50123}), or null when no link is open. */
    public String linkName() {
        ByteLink current = link;
        return current == null ? null : current.name();
    }

    /**
     * The device's session rate as of its last poll, 0 outside a session: readable from any thread, unlike
     * {@link EmulatedDevice#sessionRateHz()}.
     */
    public int sessionRateHz() {
        return sessionRateHz;
    }

    /**
     * The oldest event not yet taken, or null: links opened and closed (by the peer or by an error) and sessions
     * started and ended, in the order the firmware thread saw them.
     */
    public Event pollEvent() {
        return events.poll();
    }

    /** Events dropped because {@link #EVENT_CAPACITY} were waiting. */
    public long eventsDropped() {
        return eventsDropped;
    }

    private void emit(EventKind kind, String linkName, String detail) {
        if (!events.offer(new Event(kind, linkName, detail))) {
            eventsDropped++;
        }
    }

    /** The last link error, or null; a peer closing the link is not an error. */
    public String lastError() {
        return lastError;
    }

    private void run() {
        threadPolicyRefusal = ThreadPolicy.setCurrentThreadFifo(rtPriority);
        while (running) {
            ByteLink current = link;
            if (current == null) {
                current = open();
                if (current == null) {
                    // No host: the firmware keeps running (its watchdog and liveness timers still act).
                    runTasks();
                    device.poll(clockNs.getAsLong(), tx, 0);
                    publish();
                    LockSupport.parkNanos(pollIntervalNs);
                    continue;
                }
            }
            try {
                cycle(current);
            } catch (PeerClosedException e) {
                // How every host leaves (its closing zero FORCE, then close): told as such, not as an error.
                current.close();
                link = null;
                if (running) {
                    emit(EventKind.LINK_CLOSED_BY_PEER, current.name(), null);
                }
            } catch (IOException e) {
                // After close() the link fails because close() closed it; that is not worth reporting.
                current.close();
                link = null;
                if (running) {
                    lastError = named(current, e);
                    emit(EventKind.LINK_FAILED, current.name(), lastError);
                }
            }
            LockSupport.parkNanos(pollIntervalNs);
        }
        ByteLink last = link;
        if (last != null) {
            last.close();
        }
    }

    private ByteLink open() {
        try {
            ByteLink opened = connector.connect();
            if (!running) {
                opened.close();
                return null;
            }
            link = opened;
            linksOpened++;
            emit(EventKind.LINK_OPENED, opened.name(), null);
            return opened;
        } catch (java.net.SocketTimeoutException waiting) {
            return null;
        } catch (IOException e) {
            lastError = e.getMessage();
            LockSupport.parkNanos(RECONNECT_INTERVAL_NS);
            return null;
        }
    }

    private void runTasks() {
        Consumer<EmulatedDevice> task;
        while ((task = tasks.poll()) != null) {
            task.accept(device);
        }
    }

    /**
     * A volatile write only when the rate changes, not one fence per cycle; session events when the device's
     * counters move. The counters, not the rate, tell a new session: a host that reconnects within the 500 ms
     * liveness sends its HELLO while the old session runs, and the rate stays the same.
     */
    private void publish() {
        long ended = device.sessionsEnded() - sessionsEndedSeen;
        long started = device.sessionsStarted() - sessionsStartedSeen;
        if (ended != 0 || started != 0) {
            sessionsEndedSeen += ended;
            sessionsStartedSeen += started;
            // A HELLO that replaces a session ends the old one and starts the new in one step: one event.
            long restarted = Math.min(ended, started);
            String rate = Integer.toString(device.sessionRateHz());
            for (long i = restarted; i < ended; i++) {
                emit(EventKind.SESSION_ENDED, linkName(), null);
            }
            for (long i = 0; i < restarted; i++) {
                emit(EventKind.SESSION_RESTARTED, linkName(), rate);
            }
            for (long i = restarted; i < started; i++) {
                emit(EventKind.SESSION_STARTED, linkName(), rate);
            }
        }
        int rateHz = device.sessionRateHz();
        if (rateHz != publishedSessionRateHz) {
            publishedSessionRateHz = rateHz;
            sessionRateHz = rateHz;
        }
    }

    private void cycle(ByteLink current) throws IOException {
        runTasks();
        long nowNs = clockNs.getAsLong();
        // Bytes waiting now arrived at some time since the last cycle; a real device's UART interrupt would have
        // taken them as they came. On time, they count as received one poll interval after the last cycle, the
        // earliest they could have been seen, so a host that stalls is judged by when its frames really stopped.
        // After a late cycle (this thread, not the host, was descheduled: a busy host machine) they count as
        // received now, as a halted microcontroller sees its FIFO on resuming; the earliest-time rule would then
        // date the newest FORCE up to the whole gap too early and trip the 5 ms watchdog for the emulator's own
        // lateness. Late cycles are counted ({@link #lateCycles()}) so a test can tell the two apart.
        long receivedNs = nowNs;
        if (lastCycleNs != Long.MIN_VALUE) {
            long gapNs = nowNs - lastCycleNs;
            if (gapNs > maxCycleGapNs) {
                maxCycleGapNs = gapNs;
            }
            lateCycleLog.record(nowNs, gapNs);
            if (gapNs > LATE_CYCLE_NS) {
                lateCycles++;
            } else {
                receivedNs = Math.min(nowNs, lastCycleNs + pollIntervalNs);
            }
        }
        lastCycleNs = nowNs;
        int available = current.available();
        if (available == 0 && !device.isStreaming() && nowNs - nextLinkCheckNs >= 0) {
            nextLinkCheckNs = nowNs + LINK_CHECK_INTERVAL_NS;
            // Throws if the peer has closed; bytes that arrive during the wait are the host's and are kept.
            int n = current.read(rx, 0, rx.length);
            nowNs = clockNs.getAsLong();
            // The firmware chose to wait here (it has nothing to send): the next cycle is not late for it.
            lastCycleNs = nowNs;
            if (n > 0) {
                accept(n, nowNs);
            }
        }
        while (available > 0) {
            int n = current.read(rx, 0, Math.min(available, rx.length));
            accept(n, receivedNs);
            available -= n;
            if (n == 0) {
                break;
            }
        }
        int n = device.poll(nowNs, tx, 0);
        publish();
        if (unplugged) {
            return;
        }
        byte[] noise = garbage;
        if (noise != null) {
            garbage = null;
            current.write(noise, 0, noise.length);
        }
        if (n > 0) {
            current.write(tx, 0, n);
        }
    }

    /** Socket errors say "Broken pipe" without saying where; serial link errors already name their port. */
    private static String named(ByteLink link, IOException e) {
        String message = String.valueOf(e.getMessage());
        return message.startsWith(link.name()) ? message : link.name() + ": " + message;
    }

    private void accept(int n, long receivedNs) {
        if (unplugged) {
            bytesDiscarded += n;
            forceGapOpen = false;
        } else {
            device.receive(rx, 0, n, receivedNs);
            noteForceArrivals();
        }
    }

    /**
     * A gap between two FORCE arrivals of one session, both with the cable in: the host (its loop, its writer, or
     * this machine) sent nothing for that long. Gaps across an unplug or a new session are not the host's.
     */
    private void noteForceArrivals() {
        long received = device.forcesReceived();
        if (received == forcesSeen) {
            return;
        }
        forcesSeen = received;
        long atNs = device.lastForceReceivedNs();
        long sessions = device.sessionsStarted();
        if (forceGapOpen && sessions == forceGapSessions) {
            forceGapLog.record(atNs, atNs - lastForceArrivalNs);
        }
        forceGapSessions = sessions;
        forceGapOpen = true;
        lastForceArrivalNs = atNs;
    }

    private long lastForceArrivalNs;

    @Override
    public long watchdogTrips() {
        return device.watchdogTrips();
    }

    @Override
    public HostTiming hostTiming() {
        return new HostTiming(forceGapLog, lateCycleLog);
    }

    /** Stops the firmware thread and closes the link. */
    @Override
    public void close() {
        running = false;
        ByteLink current = link;
        if (current != null) {
            current.close();
        }
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
