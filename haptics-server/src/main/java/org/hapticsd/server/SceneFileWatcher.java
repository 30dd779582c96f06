package org.hapticsd.server;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code run --reload}: watches the scene file and, once it has been saved, asks for the scene to be built again and
 * swapped in ({@link ServerCommands#reloadFirstScene()}), so that a researcher editing the file feels the change
 * without restarting the server. A file that no longer builds leaves the running scene as it is; the reason is logged,
 * and the next save is tried again.
 *
 * <p>Editors save in bursts (a truncate and a write, or a new file renamed over the old one), so a change is acted on
 * once the file has been quiet for {@link #QUIET_MS}. The watcher's own thread does the waiting; the loop never sees
 * it: the reload is the same off-loop build and one-tick swap as RESET_SCENE.
 */
public final class SceneFileWatcher implements AutoCloseable {
    /** How long a file must stay unchanged after a change before it is read. */
    static final long QUIET_MS = 150;
    private static final Logger LOG = LoggerFactory.getLogger(SceneFileWatcher.class);

    private final Path file;
    private final Supplier<CompletionStage<String>> reload;
    private final WatchService watcher;
    private final Thread thread;
    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong reloads = new AtomicLong();
    private volatile String lastOutcome;

    private SceneFileWatcher(Path file, Supplier<CompletionStage<String>> reload, WatchService watcher) {
        this.file = file;
        this.reload = reload;
        this.watcher = watcher;
        this.thread = new Thread(this::run, "hapticsd-scene-watch");
        this.thread.setDaemon(true);
    }

    /**
     * Watches {@code file} (its folder, for the editors that replace the file) and calls {@code reload} after each
     * save; {@code reload} completes with null once the new scene runs, or with the reason it does not.
     *
     * @throws IOException when the folder cannot be watched
     */
    public static SceneFileWatcher start(Path file, Supplier<CompletionStage<String>> reload) throws IOException {
        Path absolute = file.toAbsolutePath().normalize();
        WatchService watcher = FileSystems.getDefault().newWatchService();
        try {
            absolute.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE,
                StandardWatchEventKinds.ENTRY_MODIFY);
        } catch (IOException | RuntimeException e) {
            watcher.close();
            throw e;
        }
        SceneFileWatcher started = new SceneFileWatcher(absolute, reload, watcher);
        started.thread.start();
        return started;
    }

    /** Saves acted on so far: each a reload asked for, whatever came of it. */
    public long attempts() {
        return attempts.get();
    }

    /** Saves whose scene now runs. */
    public long reloads() {
        return reloads.get();
    }

    /** What came of the last save: null when its scene runs, the reason otherwise; null before the first. */
    public String lastOutcome() {
        return lastOutcome;
    }

    private void run() {
        try {
            while (true) {
                if (!touchesFile(watcher.take())) {
                    continue;
                }
                // Quiet for QUIET_MS: the rest of the save's burst is taken here.
                WatchKey more;
                while ((more = watcher.poll(QUIET_MS, TimeUnit.MILLISECONDS)) != null) {
                    touchesFile(more);
                }
                reloadNow();
            }
        } catch (InterruptedException | ClosedWatchServiceException e) {
            // Closed.
        }
    }

    /** Whether the key's events name the scene file; the key is reset for the next ones. */
    private boolean touchesFile(WatchKey key) {
        boolean touched = false;
        for (WatchEvent<?> event : key.pollEvents()) {
            // An overflow means events were lost: the file may have changed among them.
            touched |= event.kind() == StandardWatchEventKinds.OVERFLOW
                || file.getFileName().equals(event.context());
        }
        if (!key.reset()) {
            // The folder is gone (deleted, unmounted): no more events will come for it.
            LOG.warn("{}'s folder can no longer be watched: saves are not reloaded any more", file);
        }
        return touched;
    }

    private void reloadNow() throws InterruptedException {
        String outcome;
        try {
            outcome = reload.get().toCompletableFuture().get();
        } catch (ExecutionException e) {
            outcome = "cannot reload: " + e.getCause();
        }
        lastOutcome = outcome;
        attempts.incrementAndGet();
        if (outcome == null) {
            reloads.incrementAndGet();
            LOG.info("{} changed: reloaded", file);
        } else if (outcome.endsWith(ServerCommands.NOT_THE_FIRST_SCENE)) {
            LOG.info("{} changed: not reloaded, {}", file, ServerCommands.NOT_THE_FIRST_SCENE);
        } else {
            LOG.warn("{} changed: not reloaded, the running scene is kept: {}", file, outcome);
        }
    }

    @Override
    public void close() {
        try {
            watcher.close();
        } catch (IOException e) {
            LOG.debug("closing the watch service", e);
        }
        thread.interrupt();
    }
}
