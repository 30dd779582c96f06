package org.hapticsd.server.script;

import java.util.List;
import java.util.Locale;
import org.hapticsd.server.device.DeviceSelector;
import org.hapticsd.server.scene.Located;

/**
 * A device-in-the-loop test script (YAML): which device and scene, a timeline for the simulated user's hand, and
 * assertions on what the loop did. Fields are checked as they are read, so an error names the line and field.
 */
public final class ScriptSpec {
    /** {@code timing: realtime}: the loop, the link and the device keep wall-clock time (the default). */
    public static final String REAL_TIME = "realtime";
    /** {@code timing: lockstep}: the loop and the in-process emulator advance together on simulated time. */
    public static final String LOCKSTEP = "lockstep";
    private String name;
    private String device = "sim";
    private String scene;
    private Integer rateHz;
    private double durationS = Double.NaN;
    private double emulatorWatchdogMs = Double.NaN;
    private String emulatorTransport;
    private String timing = REAL_TIME;
    private double hostBudgetMs = Double.NaN;
    private boolean hostTimingGiven;
    private List<Step> timeline = List.of();
    private List<Assertion> assertions = List.of();
    /** The script's text: its top-level mapping is not {@link Located}, so a field's place is found in it. */
    private String text = "";

    public void setName(String value) {
        this.name = value;
    }

    public void setDevice(String value) {
        DeviceSelector.check(value);
        this.device = value;
    }

    public void setScene(String value) {
        this.scene = value;
    }

    public void setRateHz(int value) {
        if (value < 250 || value > 4000) {
            throw new IllegalArgumentException("rateHz must be 250..4000, got " + value);
        }
        this.rateHz = value;
    }

    public void setDuration(double value) {
        this.durationS = positive("duration", value);
    }

    /** {@code emulator: {watchdogMs: MS}}: the in-process emulator's FORCE watchdog (default 5 ms, spec 7). */
    public void setEmulator(EmulatorSettings value) {
        this.emulatorWatchdogMs = value == null ? Double.NaN : value.watchdogMs;
        this.emulatorTransport = value == null ? null : value.transport;
    }

    /** {@code pty}, {@code tcp} or null (pty when socat is installed). */
    public String emulatorTransport() {
        return emulatorTransport;
    }

    public double emulatorWatchdogMs() {
        return emulatorWatchdogMs;
    }

    /** Settings of the in-process emulator. */
    public static final class EmulatorSettings {
        private double watchdogMs = Double.NaN;
        private String transport;

        public void setTransport(String value) {
            if (!List.of("pty", "tcp").contains(value)) {
                throw new IllegalArgumentException("transport must be pty or tcp, got '" + value + "'");
            }
            this.transport = value;
        }

        public void setWatchdogMs(double value) {
            if (!(value > 0) || value > 1000) {
                throw new IllegalArgumentException("watchdogMs must be > 0 and <= 1000, got " + value);
            }
            this.watchdogMs = value;
        }
    }

    /** {@code realtime} (default) or {@code lockstep}; lockstep needs {@code device: emulator} (checked on load). */
    public void setTiming(String value) {
        if (!REAL_TIME.equals(value) && !LOCKSTEP.equals(value)) {
            throw new IllegalArgumentException("timing must be realtime or lockstep, got '" + value + "'");
        }
        this.timing = value;
    }

    public String timing() {
        return timing;
    }

    public boolean isLockstep() {
        return LOCKSTEP.equals(timing);
    }

    /**
     * {@code hostTiming: {budgetMs: MS}}: the longest the host may fail to keep time (a loop gap, a gap between
     * FORCE frames reaching the device, a late emulator cycle) inside an assertion's window before that assertion
     * is reported as a host stall rather than checked.
     */
    public void setHostTiming(HostTimingSettings value) {
        this.hostTimingGiven = value != null;
        this.hostBudgetMs = value == null ? Double.NaN : value.budgetMs;
    }

    boolean hostTimingGiven() {
        return hostTimingGiven;
    }

    /** The host-timing budget in milliseconds, NaN when the script sets none. */
    public double hostBudgetMs() {
        return hostBudgetMs;
    }

    /** Settings of the host-timing check. */
    public static final class HostTimingSettings {
        private double budgetMs = Double.NaN;

        public void setBudgetMs(double value) {
            if (!(value > 0) || value > 10_000) {
                throw new IllegalArgumentException("budgetMs must be > 0 and <= 10000, got " + value);
            }
            this.budgetMs = value;
        }
    }

    public void setTimeline(List<Step> value) {
        this.timeline = value == null ? List.of() : List.copyOf(value);
    }

    public void setAssertions(List<Assertion> value) {
        this.assertions = value == null ? List.of() : List.copyOf(value);
    }

    public String name() {
        return name;
    }

    /** Keeps the script's text so that a later refusal (the scene, the rate, the recording) can name its line. */
    void keepText(String value) {
        this.text = value;
    }

    /** Where top-level field {@code key} starts, as ":LINE:COLUMN", or "" when it is not written as such. */
    String where(String key) {
        return ScriptRunner.topLevelKey(text, key);
    }

    public String device() {
        return device;
    }

    public String scene() {
        return scene;
    }

    public Integer rateHz() {
        return rateHz;
    }

    public double durationS() {
        return durationS;
    }

    public List<Step> timeline() {
        return timeline;
    }

    public List<Assertion> assertions() {
        return assertions;
    }

    static double positive(String field, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be > 0 and finite, got " + value);
        }
        return value;
    }

    static double nonNegative(String field, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(field + " must be >= 0 and finite, got " + value);
        }
        return value;
    }

    static double[] point(String field, double[] value) {
        if (value == null || value.length != 3) {
            throw new IllegalArgumentException(field + " must be [x, y, z] in metres");
        }
        for (double v : value) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException(field + " must be finite");
            }
        }
        return value.clone();
    }

    /** A {@code set} step's parameter, as SET_PARAMETER names it ({@code contact.stiffnessNpm}, ...), and its value. */
    public static final class SetSpec extends Located {
        private String name;
        private double value = Double.NaN;

        public void setName(String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = value;
        }

        public void setValue(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("value must be finite");
            }
            this.value = value;
        }

        /** Null when the file leaves it out. */
        public String name() {
            return name;
        }

        /** NaN when the file leaves it out. */
        public double value() {
            return value;
        }
    }

    /**
     * One timeline step for the simulated hand: {@code hold: [x, y, z]} jumps the hand target there at {@code at};
     * {@code moveTo: [x, y, z]} with {@code over: S} moves it there in a straight line from {@code at} to
     * {@code at + over}.
     */
    public static final class Step extends Located {
        private double atS = Double.NaN;
        private double[] holdM;
        private double[] moveToM;
        private double overS;
        private double[] pressN;
        private boolean release;
        private double unplugS;
        private int garbageBytes;
        private double stallS;
        private int buttons = -1;
        private double[] renderForceN;
        private double frequencyHz;
        private SetSpec set;

        public void setAt(double value) {
            this.atS = nonNegative("at", value);
        }

        public void setHold(double[] value) {
            this.holdM = point("hold", value);
        }

        public void setMoveTo(double[] value) {
            this.moveToM = point("moveTo", value);
        }

        public void setOver(double value) {
            this.overS = positive("over", value);
        }

        /** The hand pushes with this force (N, device frame) from {@code at} until the next hand step. */
        public void setPress(double[] value) {
            this.pressN = force("press", value);
        }

        /** A step's force: three finite numbers, newtons. */
        private static double[] force(String field, double[] value) {
            if (value == null || value.length != 3) {
                throw new IllegalArgumentException(field + " must be [fx, fy, fz] in newtons");
            }
            for (double v : value) {
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException(field + " must be finite");
                }
            }
            return value.clone();
        }

        /** {@code release: true}: the hand lets go of the stylus at {@code at} until the next hand step. */
        public void setRelease(boolean value) {
            if (!value) {
                throw new IllegalArgumentException("release must be true (leave it out otherwise)");
            }
            this.release = true;
        }

        public double[] pressN() {
            return pressN;
        }

        public boolean release() {
            return release;
        }

        /**
         * The stylus buttons the hand holds down from {@code at} until the next {@code buttons} step (bit i = button i;
         * 0 lets go of them all), whatever the hand's position does meanwhile.
         */
        public void setButtons(int value) {
            if (value < 0 || value > 0xFFFF) {
                throw new IllegalArgumentException("buttons must be a bit mask 0..65535, got " + value);
            }
            this.buttons = value;
        }

        /** The buttons mask this step sets, or −1 when it is another kind of step. */
        public int buttons() {
            return buttons;
        }

        /**
         * The server adds this force (N, device frame) to what it renders from {@code at} until the next
         * {@code renderForce} step: a known force for the device to deliver. [0, 0, 0] stops it.
         */
        public void setRenderForce(double[] value) {
            this.renderForceN = force("renderForce", value);
        }

        /** With {@code renderForce}: the force is a sine of this frequency, F·sin(2π·f·(t − at)); 0 (default): constant. */
        public void setFrequencyHz(double value) {
            this.frequencyHz = positive("frequencyHz", value);
        }

        /** The force a {@code renderForce} step sets, or null for another kind of step. */
        public double[] renderForceN() {
            return renderForceN;
        }

        public double frequencyHz() {
            return frequencyHz;
        }

        /**
         * {@code set: {name, value}}: one of the scene's parameters changed at {@code at}, as a stream client's
         * SET_PARAMETER would (the force scale, the contact's, the coupling's, a body's material effect), within what
         * the scene file sets.
         */
        public void setSet(SetSpec value) {
            this.set = value;
        }

        /** The parameter a {@code set} step changes, or null for another kind of step. */
        public SetSpec set() {
            return set;
        }

        /** Emulator only: the cable is out for this many seconds (the device neither hears nor answers). */
        public void setUnplug(double value) {
            this.unplugS = positive("unplug", value);
        }

        /** Emulator only: this many bytes of noise on the line from the device. */
        public void setGarbage(int value) {
            if (value < 1 || value > 65_536) {
                throw new IllegalArgumentException("garbage must be 1..65536 bytes, got " + value);
            }
            this.garbageBytes = value;
        }

        /** The server's loop thread stops for this many seconds inside one tick (at most 1 s). */
        public void setStall(double value) {
            if (!(value > 0) || value > 1.0) {
                throw new IllegalArgumentException("stall must be > 0 and <= 1 s, got " + value);
            }
            this.stallS = value;
        }

        public double unplugS() {
            return unplugS;
        }

        public int garbageBytes() {
            return garbageBytes;
        }

        public double stallS() {
            return stallS;
        }

        /**
         * How many of hold, moveTo, press, release, buttons, renderForce, set, unplug, garbage, stall this step
         * gives.
         */
        int kinds() {
            return (holdM != null ? 1 : 0) + (moveToM != null ? 1 : 0) + (pressN != null ? 1 : 0) + (release ? 1 : 0)
                + (buttons >= 0 ? 1 : 0) + (renderForceN != null ? 1 : 0) + (set != null ? 1 : 0)
                + (unplugS > 0 ? 1 : 0) + (garbageBytes > 0 ? 1 : 0) + (stallS > 0 ? 1 : 0);
        }

        boolean movesHand() {
            return holdM != null || moveToM != null || pressN != null || release;
        }

        /** A step that sets the hand's position target (hold, moveTo), as opposed to press or release. */
        boolean positionsHand() {
            return holdM != null || moveToM != null;
        }

        public double atS() {
            return atS;
        }

        public double[] holdM() {
            return holdM;
        }

        public double[] moveToM() {
            return moveToM;
        }

        public double overS() {
            return overS;
        }
    }

    /**
     * One check, at an instant ({@code at}) or over an interval ({@code from}, {@code to}): exactly one of
     * {@code force} (bounds on one force component or its magnitude), {@code safety} (the safety state),
     * {@code contact} (some contact happened in the interval), {@code maxOverruns} (over the whole run).
     */
    public static final class Assertion extends Located {
        private String name;
        private double atS = Double.NaN;
        private double fromS = Double.NaN;
        private double toS = Double.NaN;
        private ForceBound force;
        private PositionBound toolPosition;
        private PositionBound bodyPosition;
        private String safety;
        private Boolean contact;
        private Boolean connected;
        private Integer maxOverruns;
        private LatencyBound linkLatency;
        private Integer maxFramesLost;
        private CountBound framesLost;
        private CountBound reconnects;
        private CountBound deviceWatchdogTrips;

        public void setName(String value) {
            this.name = value;
        }

        public void setAt(double value) {
            this.atS = nonNegative("at", value);
        }

        public void setFrom(double value) {
            this.fromS = nonNegative("from", value);
        }

        public void setTo(double value) {
            this.toS = nonNegative("to", value);
        }

        public void setForce(ForceBound value) {
            this.force = value;
        }

        /** Bounds on one coordinate of the tool's centre (the proxy's, for a scene rendered by proxy). */
        public void setToolPosition(PositionBound value) {
            this.toolPosition = value;
        }

        public PositionBound toolPosition() {
            return toolPosition;
        }

        /** Bounds on one coordinate of a scene body's centre (a dynamic body's, which moves). */
        public void setBodyPosition(PositionBound value) {
            this.bodyPosition = value;
        }

        public PositionBound bodyPosition() {
            return bodyPosition;
        }

        public void setSafety(String value) {
            String upper = value == null ? "" : value.toUpperCase(Locale.ROOT);
            if (!List.of("GATED", "RAMPING", "ACTIVE", "SAFE", "ESTOP").contains(upper)) {
                throw new IllegalArgumentException(
                    "safety must be gated, ramping, active, safe or estop, got '" + value + "'");
            }
            this.safety = upper;
        }

        public void setContact(boolean value) {
            this.contact = value;
        }

        /** The device reports itself connected (fresh states arriving) at every tick of the time, or at none. */
        public void setConnected(boolean value) {
            this.connected = value;
        }

        public Boolean connected() {
            return connected;
        }

        public void setMaxOverruns(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("maxOverruns must be >= 0, got " + value);
            }
            this.maxOverruns = value;
        }

        public void setLinkLatency(LatencyBound value) {
            this.linkLatency = value;
        }

        public void setMaxFramesLost(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("maxFramesLost must be >= 0, got " + value);
            }
            this.maxFramesLost = value;
        }

        public void setFramesLost(CountBound value) {
            this.framesLost = value;
        }

        public CountBound framesLost() {
            return framesLost;
        }

        public void setReconnects(CountBound value) {
            this.reconnects = value;
        }

        public void setDeviceWatchdogTrips(CountBound value) {
            this.deviceWatchdogTrips = value;
        }

        public LatencyBound linkLatency() {
            return linkLatency;
        }

        public Integer maxFramesLost() {
            return maxFramesLost;
        }

        public CountBound reconnects() {
            return reconnects;
        }

        public CountBound deviceWatchdogTrips() {
            return deviceWatchdogTrips;
        }

        /** Checks over the whole run that read the link's statistics, not the trace. */
        boolean isLinkCheck() {
            return linkLatency != null || maxFramesLost != null || framesLost != null || reconnects != null
                || deviceWatchdogTrips != null;
        }

        /** Checks with no time: over the whole run. */
        boolean isWholeRun() {
            return maxOverruns != null || isLinkCheck();
        }

        int kinds() {
            return (force != null ? 1 : 0) + (toolPosition != null ? 1 : 0) + (bodyPosition != null ? 1 : 0)
                + (safety != null ? 1 : 0)
                + (contact != null ? 1 : 0)
                + (connected != null ? 1 : 0)
                + (maxOverruns != null ? 1 : 0) + (linkLatency != null ? 1 : 0) + (maxFramesLost != null ? 1 : 0)
                + (framesLost != null ? 1 : 0) + (reconnects != null ? 1 : 0) + (deviceWatchdogTrips != null ? 1 : 0);
        }

        public String name() {
            return name;
        }

        public double atS() {
            return atS;
        }

        public double fromS() {
            return fromS;
        }

        public double toS() {
            return toS;
        }

        public ForceBound force() {
            return force;
        }

        public String safety() {
            return safety;
        }

        public Boolean contact() {
            return contact;
        }

        public Integer maxOverruns() {
            return maxOverruns;
        }
    }

    /** {@code axis} (x, y or z) of the tool's centre, scene frame, within [{@code min}, {@code max}] metres. */
    public static final class PositionBound {
        private String axis;
        private double minM = Double.NEGATIVE_INFINITY;
        private double maxM = Double.POSITIVE_INFINITY;
        private String body;

        /** {@code bodyPosition} only: the scene body whose centre is checked. */
        public void setBody(String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("body must name a body of the scene");
            }
            this.body = value;
        }

        public String body() {
            return body;
        }

        public void setAxis(String value) {
            if (!List.of("x", "y", "z").contains(value)) {
                throw new IllegalArgumentException("axis must be x, y or z, got '" + value + "'");
            }
            this.axis = value;
        }

        public void setMin(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("min must be finite");
            }
            this.minM = value;
        }

        public void setMax(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("max must be finite");
            }
            this.maxM = value;
        }

        public String axis() {
            return axis;
        }

        public double minM() {
            return minM;
        }

        public double maxM() {
            return maxM;
        }
    }

    /** {@code maxMs}: the round-trip time at {@code percentile} (default 99) must not exceed it. */
    public static final class LatencyBound {
        private double percentile = 99.0;
        private double maxMs = Double.NaN;

        public void setPercentile(double value) {
            if (!(value > 0) || value > 100) {
                throw new IllegalArgumentException("percentile must be > 0 and <= 100, got " + value);
            }
            this.percentile = value;
        }

        public void setMaxMs(double value) {
            this.maxMs = positive("maxMs", value);
        }

        public double percentile() {
            return percentile;
        }

        public double maxMs() {
            return maxMs;
        }
    }

    /**
     * {@code min} and/or {@code max}, whole numbers >= 0. Whether a bound was given is kept apart from its value:
     * {@code min: 0} is a bound a script may write (it documents that none is also fine), not a missing one.
     */
    public static final class CountBound {
        private long min;
        private long max = Long.MAX_VALUE;
        private boolean given;

        public void setMin(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("min must be >= 0, got " + value);
            }
            this.min = value;
            this.given = true;
        }

        public void setMax(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("max must be >= 0, got " + value);
            }
            this.max = value;
            this.given = true;
        }

        /** Whether the script gave min, max or both. */
        boolean given() {
            return given;
        }

        public long min() {
            return min;
        }

        public long max() {
            return max;
        }
    }

    /** {@code axis: x | y | z | magnitude}, and at least one of {@code min}, {@code max} (newtons). */
    public static final class ForceBound {
        private String axis = "magnitude";
        private String source = "commanded";
        private double minN = Double.NEGATIVE_INFINITY;
        private double maxN = Double.POSITIVE_INFINITY;

        public void setAxis(String value) {
            if (!List.of("x", "y", "z", "magnitude").contains(value)) {
                throw new IllegalArgumentException("axis must be x, y, z or magnitude, got '" + value + "'");
            }
            this.axis = value;
        }

        public void setMin(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("min must be finite");
            }
            this.minN = value;
        }

        public void setMax(double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("max must be finite");
            }
            this.maxN = value;
        }

        /**
         * {@code commanded}: the force the server sent (after its safety layer); {@code delivered}: the force the
         * device reports applying (after its own clamp and watchdog), from its STATE.
         */
        public void setSource(String value) {
            if (!List.of("commanded", "delivered").contains(value)) {
                throw new IllegalArgumentException("source must be commanded or delivered, got '" + value + "'");
            }
            this.source = value;
        }

        public String source() {
            return source;
        }

        public String axis() {
            return axis;
        }

        public double minN() {
            return minN;
        }

        public double maxN() {
            return maxN;
        }
    }
}
