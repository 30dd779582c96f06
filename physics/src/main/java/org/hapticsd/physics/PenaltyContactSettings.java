package org.hapticsd.physics;

/**
 * The spring–damper that turns a penetration into a force: {@code f = max(0, k·d + b·ḋ)} along the contact
 * normal, with {@code d} the depth and {@code ḋ} its rate of increase; the same {@code k} and {@code b} make the
 * tangential stick spring of penalty friction. Scene-wide, part of {@link ContactSettings}. Immutable.
 *
 * <h2>How stiff is too stiff</h2>
 * A penalty wall is a spring of stiffness {@code k} that the loop samples every period {@code T}. Two limits
 * bound {@code k}, and the stiffness to choose is below both:
 * <ol>
 *   <li><b>Numerical stability of a simulated mass.</b> A mass {@code m} on a spring {@code k}, integrated with
 *       symplectic (semi-implicit) Euler at step {@code Δt}, has an amplification matrix whose eigenvalues stay
 *       on the unit circle only while {@code ω·Δt < 2}, with {@code ω = √(k/m)}; beyond that the oscillation
 *       grows every step. Hence {@code k < 4·m/Δt²}: {@link #maxStableStiffnessNpm(double, double)}. This is
 *       the same bound Box2D's {@code b2MakeSoft} respects when it caps contact hertz against the step rate;
 *       it bounds {@link ContactMode#PENALTY} contacts on dynamic bodies (see
 *       {@code dynamics.contact.PenaltyContactModel} for the effective mass to use and the damped form
 *       {@code k·Δt² + 2·b·Δt < 4·m}) and any virtual coupling to a simulated proxy.</li>
 *   <li><b>Passivity of the haptic display.</b> A device with intrinsic (mechanical) damping {@code b} that
 *       renders a virtual wall {@code K} with virtual damping {@code B}, sampled and held every {@code T},
 *       stays passive — it cannot inject energy into the user's hand and start to buzz — when
 *       {@code b > K·T/2 + |B|} (J. E. Colgate and G. G. Schenkel, "Passivity of a class of sampled-data
 *       systems: application to haptic interfaces", J. Robotic Systems 14(1), 1997). With no virtual damping
 *       this gives {@code K < 2·b/T}: {@link #maxPassiveStiffnessNpm(double, double)};
 *       {@link #isPassiveFor(double, double)} checks these settings including their damping.</li>
 * </ol>
 * At 1 kHz a device with {@code b = 1 N·s/m} can passively render 2000 N/m; stiffer walls need more device
 * damping, a faster loop, or a virtual coupling.
 *
 * <p>Rejected alternative: stating the spring as hertz and damping ratio (Box2D soft step). That form needs a
 * mass, and a penalty force on a kinematic tool has none: the device and the user's hand are the mass. The
 * server configures physical {@code N/m} and {@code N·s/m} and checks them against the bounds above.
 */
public final class PenaltyContactSettings {

    private final double stiffnessNpm;
    private final double dampingNspm;

    /**
     * @param stiffnessNpm spring stiffness {@code k}, N/m, finite and {@code > 0}
     * @param dampingNspm damping {@code b} on the rate of penetration, N·s/m, finite and {@code >= 0}
     */
    public PenaltyContactSettings(double stiffnessNpm, double dampingNspm) {
        if (!(stiffnessNpm > 0.0) || !Double.isFinite(stiffnessNpm)) {
            throw new IllegalArgumentException("stiffnessNpm must be finite and > 0, was " + stiffnessNpm);
        }
        if (!(dampingNspm >= 0.0) || !Double.isFinite(dampingNspm)) {
            throw new IllegalArgumentException("dampingNspm must be finite and >= 0, was " + dampingNspm);
        }
        this.stiffnessNpm = stiffnessNpm;
        this.dampingNspm = dampingNspm;
    }

    /** Spring stiffness {@code k}, N/m. */
    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    /** Damping {@code b} on the rate of penetration, N·s/m. */
    public double dampingNspm() {
        return dampingNspm;
    }

    /**
     * The stiffness above which a mass-spring integrated with symplectic Euler diverges:
     * {@code ω·Δt < 2} with {@code ω = √(k/m)} gives {@code k < 4·m/Δt²}. The returned value is the bound itself
     * (exclusive); stay well below it, since damping and contact switching eat into the margin.
     *
     * @param massKg the mass on the spring, finite and {@code > 0}
     * @param dtS the integration step, finite and {@code > 0}
     * @return {@code 4·m/Δt²}, N/m
     */
    public static double maxStableStiffnessNpm(double massKg, double dtS) {
        requirePositive("massKg", massKg);
        requirePositive("dtS", dtS);
        return 4.0 * massKg / (dtS * dtS);
    }

    /**
     * The stiffness a sampled-data haptic display with intrinsic damping {@code b} can render passively when the
     * virtual wall has no damping: Colgate and Schenkel's {@code b > K·T/2} gives {@code K < 2·b/T}. The returned
     * value is the bound itself (exclusive).
     *
     * @param deviceDampingNspm the device's physical damping {@code b}, N·s/m, finite and {@code >= 0}
     * @param periodS the sample-and-hold period {@code T} of the force loop, finite and {@code > 0}
     * @return {@code 2·b/T}, N/m
     */
    public static double maxPassiveStiffnessNpm(double deviceDampingNspm, double periodS) {
        requireNonNegative("deviceDampingNspm", deviceDampingNspm);
        requirePositive("periodS", periodS);
        return 2.0 * deviceDampingNspm / periodS;
    }

    /**
     * Whether these settings satisfy Colgate and Schenkel's passivity condition {@code b > K·T/2 + |B|} on a
     * device with damping {@code b}, with {@code K} = {@link #stiffnessNpm()} and {@code B} =
     * {@link #dampingNspm()}: virtual damping spends part of the device's damping budget.
     *
     * @param deviceDampingNspm the device's physical damping {@code b}, N·s/m, finite and {@code >= 0}
     * @param periodS the sample-and-hold period {@code T} of the force loop, finite and {@code > 0}
     */
    public boolean isPassiveFor(double deviceDampingNspm, double periodS) {
        requireNonNegative("deviceDampingNspm", deviceDampingNspm);
        requirePositive("periodS", periodS);
        return deviceDampingNspm > stiffnessNpm * periodS / 2.0 + dampingNspm;
    }

    private static void requirePositive(String name, double value) {
        if (!(value > 0.0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and > 0, was " + value);
        }
    }

    private static void requireNonNegative(String name, double value) {
        if (!(value >= 0.0) || !Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be finite and >= 0, was " + value);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PenaltyContactSettings that
                && Double.compare(stiffnessNpm, that.stiffnessNpm) == 0
                && Double.compare(dampingNspm, that.dampingNspm) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(stiffnessNpm) + Double.hashCode(dampingNspm);
    }

    @Override
    public String toString() {
        return "PenaltyContactSettings[stiffnessNpm=" + stiffnessNpm + ", dampingNspm=" + dampingNspm + "]";
    }
}
