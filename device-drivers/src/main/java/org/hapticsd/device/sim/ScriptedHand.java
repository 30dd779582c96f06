package org.hapticsd.device.sim;

import java.util.List;

/**
 * A hand that follows a waypoint path and, from given times on, presses with a force or lets go, and holds stylus
 * buttons down: what a test script's timeline asks of the simulated user. Between a press or release and the next hold
 * the path is ignored; a hold or move after it takes the hand back to position control.
 *
 * <p>Modes are looked up with a cursor that only moves forward while time does (the device's time never goes
 * back), so a lookup is O(1) per substep and allocates nothing.
 */
public final class ScriptedHand implements HandTarget {

    /**
     * From {@code startS} on, the hand acts in {@code mode} ({@link #HOLDS}, {@link #PRESSES}, {@link #RELEASED});
     * the force is used by {@link #PRESSES} only.
     */
    public record Phase(double startS, int mode, double forceXN, double forceYN, double forceZN) {
        public Phase {
            if (!Double.isFinite(startS) || startS < 0) {
                throw new IllegalArgumentException("phase start must be >= 0 and finite, got " + startS);
            }
            if (mode != HOLDS && mode != PRESSES && mode != RELEASED) {
                throw new IllegalArgumentException("unknown hand mode " + mode);
            }
            if (!Double.isFinite(forceXN) || !Double.isFinite(forceYN) || !Double.isFinite(forceZN)) {
                throw new IllegalArgumentException("press force must be finite");
            }
        }
    }

    /** From {@code startS} on, the hand holds {@code mask} down (bit i = button i), until the next. */
    public record Buttons(double startS, int mask) {
        public Buttons {
            if (!Double.isFinite(startS) || startS < 0) {
                throw new IllegalArgumentException("buttons start must be >= 0 and finite, got " + startS);
            }
            if (mask < 0 || mask > 0xFFFF) {
                throw new IllegalArgumentException("buttons must be a bit mask 0..65535, got " + mask);
            }
        }
    }

    private final HandTarget path;
    private final Phase[] phases;
    private int cursor;
    private final double[] buttonStartsS;
    private final int[] buttonMasks;

    /** @param phases in increasing start time; before the first, the hand holds */
    public ScriptedHand(HandTarget path, List<Phase> phases) {
        this(path, phases, List.of());
    }

    /**
     * @param phases  in increasing start time; before the first, the hand holds
     * @param buttons in increasing start time; before the first, the path's buttons alone (each adds to them)
     */
    public ScriptedHand(HandTarget path, List<Phase> phases, List<Buttons> buttons) {
        this.path = path;
        this.phases = phases.toArray(new Phase[0]);
        for (int i = 1; i < this.phases.length; i++) {
            if (!(this.phases[i].startS() > this.phases[i - 1].startS())) {
                throw new IllegalArgumentException("hand phases must start at increasing times");
            }
        }
        buttonStartsS = new double[buttons.size()];
        buttonMasks = new int[buttons.size()];
        for (int i = 0; i < buttonStartsS.length; i++) {
            buttonStartsS[i] = buttons.get(i).startS();
            buttonMasks[i] = buttons.get(i).mask();
            if (i > 0 && !(buttonStartsS[i] > buttonStartsS[i - 1])) {
                throw new IllegalArgumentException("button steps must start at increasing times");
            }
        }
    }

    @Override
    public void targetAt(double tSeconds, double[] positionOut3) {
        path.targetAt(tSeconds, positionOut3);
    }

    @Override
    public int buttonsAt(double tSeconds) {
        // The last button step at or before t (a binary search: time may be asked again, and nothing allocates).
        int at = java.util.Arrays.binarySearch(buttonStartsS, tSeconds);
        int step = at >= 0 ? at : -at - 2;
        return path.buttonsAt(tSeconds) | (step >= 0 ? buttonMasks[step] : 0);
    }

    @Override
    public int modeAt(double tSeconds, double[] forceOut3) {
        if (cursor > 0 && tSeconds < phases[cursor - 1].startS()) {
            cursor = 0;
        }
        while (cursor < phases.length && phases[cursor].startS() <= tSeconds) {
            cursor++;
        }
        if (cursor == 0) {
            return HOLDS;
        }
        Phase phase = phases[cursor - 1];
        if (phase.mode() == PRESSES) {
            forceOut3[0] = phase.forceXN();
            forceOut3[1] = phase.forceYN();
            forceOut3[2] = phase.forceZN();
        }
        return phase.mode();
    }
}
