package org.hapticsd.server.loop;

/**
 * Tells when a thread has kept a core busy for a whole window: from samples of its CPU time against wall time,
 * true once the CPU time over the last {@code windowNs} (or more) of wall time is at least {@code share} of it.
 * A real-time thread that does so is about to be throttled by the kernel (by default it lets real-time threads run
 * 95 % of each second and stops them for the rest), so the loop returns to the normal policy first
 * ({@link LoopRunner}). Not thread-safe: one sampling thread.
 */
final class SaturationGuard {
    private final long windowNs;
    private final double share;
    private final long[] wallNs;
    private final long[] cpuNs;
    private int count;
    private int next;

    /** @param samplesPerWindow how many samples the caller takes in one window (the ring keeps one more) */
    SaturationGuard(long windowNs, double share, int samplesPerWindow) {
        if (windowNs <= 0 || !(share > 0 && share <= 1) || samplesPerWindow < 1) {
            throw new IllegalArgumentException("window " + windowNs + " ns, share " + share + ", samples "
                + samplesPerWindow);
        }
        this.windowNs = windowNs;
        this.share = share;
        this.wallNs = new long[samplesPerWindow + 1];
        this.cpuNs = new long[samplesPerWindow + 1];
    }

    /**
     * Adds a sample; true when some earlier sample is at least a window old and the CPU time since the newest such
     * sample is at least the share of the wall time since it.
     */
    boolean sample(long nowWallNs, long nowCpuNs) {
        wallNs[next] = nowWallNs;
        cpuNs[next] = nowCpuNs;
        next = (next + 1) % wallNs.length;
        count = Math.min(count + 1, wallNs.length);
        for (int back = 1; back < count; back++) {
            int i = Math.floorMod(next - 1 - back, wallNs.length);
            long wall = nowWallNs - wallNs[i];
            if (wall >= windowNs) {
                return nowCpuNs - cpuNs[i] >= share * wall;
            }
        }
        return false;
    }

    /** The CPU share over the longest span the samples cover, 0 with fewer than two. */
    double lastShare() {
        if (count < 2) {
            return 0;
        }
        int newest = Math.floorMod(next - 1, wallNs.length);
        int oldest = count < wallNs.length ? 0 : next;
        long wall = wallNs[newest] - wallNs[oldest];
        return wall <= 0 ? 0 : (double) (cpuNs[newest] - cpuNs[oldest]) / wall;
    }
}
