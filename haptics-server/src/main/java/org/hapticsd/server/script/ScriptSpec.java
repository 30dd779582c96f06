package org.hapticsd.server.script;

import java.util.List;
import java.util.Locale;
import org.hapticsd.server.scene.Located;

/**
 * A device-in-the-loop test script (YAML): which device and scene, a timeline for the simulated user's hand, and
 * assertions on what the loop did. Fields are checked as they are read, so an error names the line and field.
 */
public final class ScriptSpec {
    private String name;
    private String device = "sim";
    private String scene;
    private Integer rateHz;
    private double durationS = Double.NaN;
    private List<Step> timeline = List.of();
    private List<Assertion> assertions = List.of();

    public void setName(String value) {
        this.name = value;
    }

    public void setDevice(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("device must name a device (sim)");
        }
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

    public void setTimeline(List<Step> value) {
        this.timeline = value == null ? List.of() : List.copyOf(value);
    }

    public void setAssertions(List<Assertion> value) {
        this.assertions = value == null ? List.of() : List.copyOf(value);
    }

    public String name() {
        return name;
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
        private String safety;
        private Boolean contact;
        private Integer maxOverruns;

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

        public void setMaxOverruns(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("maxOverruns must be >= 0, got " + value);
            }
            this.maxOverruns = value;
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

    /** {@code axis: x | y | z | magnitude}, and at least one of {@code min}, {@code max} (newtons). */
    public static final class ForceBound {
        private String axis = "magnitude";
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
