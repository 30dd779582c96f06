package org.hapticsd.server.record;

import static org.hapticsd.server.record.RecordingFormat.ORDER;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.hapticsd.device.Uninterruptibly;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.loop.TickSink;

/**
 * Records every tick to a file without slowing the loop: the loop thread writes one fixed-size record per tick
 * into a preallocated single-producer ring (Agrona {@link OneToOneRingBuffer}: claim, write in place, commit; no
 * allocation, no lock), and a writer thread drains the ring to the file in batches.
 *
 * <p>Nothing is lost while the writer keeps up, and at 1 kHz it needs 168 kB/s. If it ever falls behind far
 * enough to fill the ring (4 MiB by default, about 24 s of ticks), a real-time loop does not wait: the tick is
 * counted as lost, the next record says how many were lost just before it, and the trailer gives the total, so
 * a recording never drops ticks silently. A loop on simulated time ({@code simulate}) may instead wait for room
 * ({@code waitWhenFull}), which makes the recording complete whatever the disk's speed.
 */
public final class TickRecorder implements TickSink, AutoCloseable {
    public static final int DEFAULT_RING_BYTES = 1 << 22;
    private static final int MESSAGE_TYPE = 1;
    private static final int BATCH_BYTES = 1 << 16;

    private final Path file;
    private final FileChannel channel;
    private final AtomicBuffer ringBuffer;
    private final OneToOneRingBuffer ring;
    private final boolean waitWhenFull;
    private final Thread writer;
    private final byte[] batch = new byte[BATCH_BYTES];
    private final UnsafeBuffer batchBuffer = new UnsafeBuffer(batch);
    /**
     * The batch as the channel writes it, and the ring's handler: made once, so that the writer thread allocates
     * nothing per poll (a wrapper per flush, every 200 µs while idle, and a handler per read were 0.27 MB/s, a sixth
     * of what a recorded run with a streaming client allocated; docs/performance.md, *Twenty-first session*).
     */
    private final ByteBuffer batchOut = ByteBuffer.wrap(batch);
    private final MessageHandler appender = this::append;
    private int batchBytes;
    private final EventCounts eventCounts = new EventCounts();

    private final AtomicLong lostTicks = new AtomicLong();
    private final AtomicLong recordsWritten = new AtomicLong();
    private long lostPending;
    private volatile boolean closing;
    private volatile boolean paused;
    private volatile IOException failure;

    private TickRecorder(Path file, FileChannel channel, int ringBytes, boolean waitWhenFull) {
        this.file = file;
        this.channel = channel;
        this.ringBuffer = new UnsafeBuffer(ByteBuffer.allocateDirect(ringBytes + RingBufferDescriptor.TRAILER_LENGTH));
        this.ring = new OneToOneRingBuffer(ringBuffer);
        this.waitWhenFull = waitWhenFull;
        this.writer = new Thread(this::drain, "hapticsd-recorder");
        this.writer.setDaemon(true);
    }

    /**
     * Creates {@code file}, writes the header and starts the writer thread.
     *
     * @param device       the ratings of the device the loop drives, kept in the header for replays
     * @param ringBytes    ring capacity, a power of two
     * @param waitWhenFull wait for room instead of counting a lost tick (simulated time only)
     */
    public static TickRecorder start(Path file, String sceneName, int rateHz, Recording.Ratings device, int ringBytes,
                                     boolean waitWhenFull) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        try {
            byte[] name = sceneName.getBytes(StandardCharsets.UTF_8);
            byte[] deviceName = device.name().getBytes(StandardCharsets.UTF_8);
            ByteBuffer header = ByteBuffer.allocate(RecordingFormat.MAGIC.length + 16 + name.length + 4
                + deviceName.length + RecordingFormat.DEVICE_RATINGS_BYTES).order(ORDER);
            header.put(RecordingFormat.MAGIC).putInt(RecordingFormat.VERSION).putInt(RecordingFormat.RECORD_BYTES)
                .putInt(rateHz).putInt(name.length).put(name)
                .putInt(deviceName.length).put(deviceName).putDouble(device.maxForceN())
                .putDouble(device.maxContinuousForceN()).putDouble(device.maxStiffnessNpm())
                .putDouble(device.dampingNspm()).flip();
            while (header.hasRemaining()) {
                channel.write(header);
            }
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        TickRecorder recorder = new TickRecorder(file, channel, ringBytes, waitWhenFull);
        recorder.writer.start();
        return recorder;
    }

    /** Like {@link #start} but the writer holds off until {@link #resumeWriter()}: lets a test fill the ring. */
    static TickRecorder startPaused(Path file, String sceneName, int rateHz, Recording.Ratings device, int ringBytes)
        throws IOException {
        TickRecorder recorder = start(file, sceneName, rateHz, device, ringBytes, false);
        recorder.paused = true;
        return recorder;
    }

    void resumeWriter() {
        paused = false;
    }

    /** Loop thread: one record per tick. Never blocks unless {@code waitWhenFull}, never allocates or throws. */
    @Override
    public void onTick(LoopSnapshot s) {
        int index = ring.tryClaim(MESSAGE_TYPE, RecordingFormat.RECORD_BYTES);
        while (index <= 0 && waitWhenFull && failure == null && !closing) {
            Thread.onSpinWait();
            index = ring.tryClaim(MESSAGE_TYPE, RecordingFormat.RECORD_BYTES);
        }
        if (index <= 0) {
            lostPending++;
            lostTicks.lazySet(lostTicks.get() + 1);
            return;
        }
        AtomicBuffer b = ringBuffer;
        b.putLong(index + RecordingFormat.TICK, s.tick, ORDER);
        b.putLong(index + RecordingFormat.TIME_NS, s.timeNs, ORDER);
        putVector(b, index + RecordingFormat.DEVICE_POSITION_M, s.devicePositionM);
        putVector(b, index + RecordingFormat.DEVICE_VELOCITY_MPS, s.deviceVelocityMps);
        b.putLong(index + RecordingFormat.DEVICE_SEQUENCE, s.deviceSequence, ORDER);
        putVector(b, index + RecordingFormat.RENDERED_FORCE_N, s.renderedForceN);
        putVector(b, index + RecordingFormat.COMMANDED_FORCE_N, s.commandedForceN);
        b.putInt(index + RecordingFormat.CONTACT_COUNT, s.contactCount, ORDER);
        b.putByte(index + RecordingFormat.SAFETY_STATE, (byte) s.safety.ordinal());
        b.putByte(index + RecordingFormat.SAFETY_FAULT, (byte) s.fault.ordinal());
        int flags = (s.deviceFresh ? RecordingFormat.FLAG_DEVICE_FRESH : 0)
            | (s.deviceConnected ? RecordingFormat.FLAG_DEVICE_CONNECTED : 0);
        b.putByte(index + RecordingFormat.FLAGS, (byte) flags);
        b.putByte(index + RecordingFormat.DEVICE_FAULT, (byte) s.deviceFault.ordinal());
        b.putLong(index + RecordingFormat.LOST_BEFORE, lostPending, ORDER);
        putVector(b, index + RecordingFormat.DELIVERED_FORCE_N, s.deliveredForceN);
        b.putInt(index + RecordingFormat.EVENTS, s.events, ORDER);
        b.putInt(index + RecordingFormat.DEVICE_STATUS_FLAGS, s.deviceStatusFlags, ORDER);
        lostPending = 0;
        ring.commit(index);
    }

    private static void putVector(AtomicBuffer b, int offset, double[] xyz) {
        b.putDouble(offset, xyz[0], ORDER);
        b.putDouble(offset + 8, xyz[1], ORDER);
        b.putDouble(offset + 16, xyz[2], ORDER);
    }

    private void drain() {
        try {
            while (true) {
                if (paused && !closing) {
                    LockSupport.parkNanos(200_000);
                    continue;
                }
                int read = ring.read(appender, 512);
                if (read == 0) {
                    flush();
                    if (closing && ring.size() == 0) {
                        break;
                    }
                    LockSupport.parkNanos(200_000);
                }
            }
            flush();
            ByteBuffer trailer = ByteBuffer.allocate(RecordingFormat.END_MAGIC.length + 16).order(ORDER);
            trailer.put(RecordingFormat.END_MAGIC).putLong(recordsWritten.get()).putLong(lostTicks.get()).flip();
            while (trailer.hasRemaining()) {
                channel.write(trailer);
            }
        } catch (IOException | UncheckedIOException e) {
            failure = e instanceof IOException io ? io : ((UncheckedIOException) e).getCause();
        } catch (OutOfMemoryError e) {
            // A tester's run at a 16 MB heap printed this thread's stack trace; the loop goes on, counting lost ticks,
            // and the run's end says the recording failed and why.
            failure = new IOException("not enough memory (max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024)
                + " MB)");
        } catch (RuntimeException e) {
            failure = new IOException("the recorder failed: " + e, e);
        } finally {
            try {
                channel.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    private void append(int messageType, DirectBuffer buffer, int index, int length) {
        if (batchBytes + length > batch.length) {
            flushUnchecked();
        }
        buffer.getBytes(index, batchBuffer, batchBytes, length);
        batchBytes += length;
        // Counted here, on the writer thread, so the summary costs the loop nothing and needs no re-read of the file.
        eventCounts.add(buffer.getInt(index + RecordingFormat.EVENTS, ORDER));
        recordsWritten.lazySet(recordsWritten.get() + 1);
    }

    private void flushUnchecked() {
        try {
            flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void flush() throws IOException {
        batchOut.clear().limit(batchBytes);
        while (batchOut.hasRemaining()) {
            channel.write(batchOut);
        }
        batchBytes = 0;
    }

    /** The writer thread's id (a test counts what it allocates). */
    long writerThreadId() {
        return writer.getId();
    }

    /** Ticks that found the ring full and were not recorded. Any thread. */
    public long lostTicks() {
        return lostTicks.get();
    }

    /** Records written to the file so far. Any thread. */
    public long recordsWritten() {
        return recordsWritten.get();
    }

    public Path file() {
        return file;
    }

    /**
     * How many recorded ticks carried each event (lost ticks are not counted: their events were lost with them).
     * Filled by the writer thread: read it only after {@link #close()}, whose join makes the counts visible.
     */
    public EventCounts eventCounts() {
        return eventCounts;
    }

    /** Drains what is left, writes the trailer and closes the file. Call after the loop has stopped. */
    @Override
    public void close() throws IOException {
        closing = true;
        Uninterruptibly.join(writer);
        if (failure != null) {
            throw new IOException("recording " + file + " failed: " + failure.getMessage(), failure);
        }
    }
}
