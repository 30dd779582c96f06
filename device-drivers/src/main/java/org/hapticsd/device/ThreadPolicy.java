package org.hapticsd.device;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.TimeUnit;

/**
 * The Linux scheduling policy of one thread, set through {@code chrt(1)} (util-linux), and the CPUs it may run on,
 * through {@code taskset(1)}: Java has no call for either, and
 * {@code sched_setscheduler} applies to the thread id the kernel knows, which the thread reads from
 * {@code /proc/thread-self}. Nothing here runs per tick: a time-critical thread (the loop, a link's reader and writer,
 * the emulator's firmware) sets its own policy once when it starts, and the loop's guard may set the loop back.
 */
public final class ThreadPolicy {
    /** Where a thread finds its own kernel thread id ({@code PID/task/TID}). */
    private static final Path THREAD_SELF = Path.of("/proc/thread-self");
    private static final long TOOL_TIMEOUT_S = 5;
    /** The highest FIFO priority a hapticsd thread takes: 99 is the kernel's own (watchdog and migration threads). */
    public static final int MAX_FIFO_PRIORITY = 98;

    private ThreadPolicy() {
    }

    /**
     * {@code priority} if it is 0 (the normal policy) or a FIFO priority 1..{@link #MAX_FIFO_PRIORITY}.
     *
     * @throws IllegalArgumentException otherwise, naming the range
     */
    public static int checkedPriority(int priority) {
        if (priority < 0 || priority > MAX_FIFO_PRIORITY) {
            throw new IllegalArgumentException("real-time priority must be 0 (the normal policy) or 1.."
                + MAX_FIFO_PRIORITY + ", got " + priority);
        }
        return priority;
    }

    /**
     * How a thread that asked for FIFO {@code priority} and did not get it says so: "normal: real-time priority
     * refused (chrt's reason; what it needs)" when the kernel refused, "normal: real-time priority not set (why)" when
     * chrt could not run or did not finish.
     */
    public static String refusal(String reason, int priority) {
        if (!reason.contains("not permitted")) {
            // chrt missing, or it did not finish: nothing was refused, and permissions are not the remedy.
            return "normal: real-time priority not set (" + reason + ")";
        }
        return "normal: real-time priority refused (" + reason + "; it needs CAP_SYS_NICE, which root has outside a "
            + "restricted container, or an rtprio limit of " + priority + " or more: limits.conf rtprio, systemd "
            + "LimitRTPRIO=)";
    }

    /**
     * A thread's scheduling as a phrase, from the priority it asked for (0: none) and why it did not get it (null: it
     * did): "normal", "real-time FIFO priority N", or {@link #refusal}'s.
     */
    public static String describe(int askedPriority, String refusal) {
        return askedPriority == 0 ? "normal" : refusal != null ? refusal(refusal, askedPriority)
            : "real-time FIFO priority " + askedPriority;
    }

    /** The calling thread's kernel thread id, or -1 where there is none to read (not Linux). */
    public static long currentThreadTid() {
        try {
            String target = Files.readSymbolicLink(THREAD_SELF).toString();
            return Long.parseLong(target.substring(target.lastIndexOf('/') + 1));
        } catch (IOException | UnsupportedOperationException | NumberFormatException e) {
            return -1;
        }
    }

    /** Puts thread {@code tid} under the real-time FIFO policy at {@code priority}; null, or why not. */
    public static String setFifo(long tid, int priority) {
        return chrt("-f", "-p", Integer.toString(priority), Long.toString(tid));
    }

    /**
     * Puts the calling thread under the FIFO policy at {@code priority} (0: leaves it as it is); null, or why not.
     */
    public static String setCurrentThreadFifo(int priority) {
        if (priority == 0) {
            return null;
        }
        long tid = currentThreadTid();
        return tid < 0 ? "real-time scheduling is set on Linux only (no /proc/thread-self here)"
            : setFifo(tid, priority);
    }

    /** Puts thread {@code tid} back under the normal time-sharing policy; null, or why not. */
    public static String setNormal(long tid) {
        return chrt("-o", "-p", "0", Long.toString(tid));
    }

    /**
     * Puts thread {@code tid} under Linux's idle policy ({@code SCHED_IDLE}): it runs only when no thread of any other
     * policy wants its CPU, and any of them takes the CPU from it at once. Lowering a thread needs no privilege. Null,
     * or why not.
     */
    public static String setIdle(long tid) {
        return chrt("-i", "-p", "0", Long.toString(tid));
    }

    /** Lets thread {@code tid} run on {@code cpus} only ({@code taskset(1)}, util-linux); null, or why not. */
    public static String pinToCpus(long tid, int... cpus) {
        StringBuilder list = new StringBuilder();
        for (int cpu : cpus) {
            list.append(list.length() == 0 ? "" : ",").append(cpu);
        }
        return utilLinux("taskset", "-p", "-c", list.toString(), Long.toString(tid));
    }

    /**
     * The CPUs thread {@code tid} of this process may run on ({@code Cpus_allowed_list} of its {@code status}), in
     * ascending order; empty when unreadable (not Linux).
     */
    public static int[] allowedCpus(long tid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/task/" + tid + "/status"),
                    StandardCharsets.US_ASCII)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseCpuList(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return new int[0];
        }
        return new int[0];
    }

    /** A kernel CPU list ("0-3,6,8-9") as the CPUs it names, ascending. */
    static int[] parseCpuList(String list) {
        BitSet cpus = new BitSet();
        for (String part : list.split(",")) {
            String range = part.trim();
            if (range.isEmpty()) {
                continue;
            }
            int dash = range.indexOf('-');
            int first = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
            int last = dash < 0 ? first : Integer.parseInt(range.substring(dash + 1));
            cpus.set(first, last + 1);
        }
        return cpus.stream().toArray();
    }

    /**
     * The policy and real-time priority of thread {@code tid} of this process as the kernel reports them (fields 41
     * and 40 of its {@code stat}): {@code {policy, priority}}, policy 0 normal, 1 FIFO, 5 idle; null when unreadable.
     */
    public static int[] policyOf(long tid) {
        try {
            String stat = Files.readString(Path.of("/proc/self/task/" + tid + "/stat"), StandardCharsets.US_ASCII);
            // Field 2 (the name) may hold spaces: count the fields after its closing parenthesis (field 3 on).
            String[] rest = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
            return new int[] {Integer.parseInt(rest[41 - 3]), Integer.parseInt(rest[40 - 3])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Runs chrt on a thread of its own and waits for it. The thread that starts a process also creates the JDK's
     * "process reaper" thread that waits for it, and a new Linux thread inherits its creator's policy: a thread that
     * ran chrt on itself was often FIFO already when it created the reaper (chrt had finished first), and the reaper
     * stayed FIFO for the life of its pool. The helper is created while its caller is still time-sharing.
     */
    private static String chrt(String... arguments) {
        return utilLinux("chrt", arguments);
    }

    /** Runs {@code tool} (chrt or taskset) as {@link #chrt} says, on a helper thread, and waits for it. */
    private static String utilLinux(String tool, String... arguments) {
        String[] result = new String[1];
        Thread helper = new Thread(() -> result[0] = run(tool, arguments), "hapticsd-" + tool);
        helper.setDaemon(true);
        helper.start();
        Uninterruptibly.join(helper);
        return result[0];
    }

    /**
     * The line of a failed tool's output that says what went wrong: its own error line ({@code "taskset: failed to
     * set pid 7's affinity: Invalid argument"}), else the last line. Not the first: taskset prints the thread's
     * current CPUs before it tries, and a refusal then read "pid 7's current affinity list: 0,1".
     */
    static String refusalLine(String tool, String said) {
        String last = said;
        for (String line : (Iterable<String>) said.lines()::iterator) {
            if (line.startsWith(tool + ":")) {
                return line;
            }
            if (!line.isBlank()) {
                last = line;
            }
        }
        return last.strip();
    }

    private static String run(String tool, String... arguments) {
        String[] command = new String[arguments.length + 1];
        command[0] = tool;
        System.arraycopy(arguments, 0, command, 1, arguments.length);
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return tool + " (util-linux) could not be run: " + e.getMessage();
        }
        try (InputStream output = process.getInputStream()) {
            String said = new String(output.readNBytes(4096), StandardCharsets.UTF_8).strip();
            if (!process.waitFor(TOOL_TIMEOUT_S, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return tool + " did not finish within " + TOOL_TIMEOUT_S + " s";
            }
            if (process.exitValue() != 0) {
                return said.isEmpty() ? tool + " exited with " + process.exitValue() : refusalLine(tool, said);
            }
            return null;
        } catch (IOException e) {
            return tool + ": " + e.getMessage();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            return "interrupted while running " + tool;
        }
    }
}
