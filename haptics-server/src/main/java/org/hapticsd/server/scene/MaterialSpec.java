package org.hapticsd.server.scene;

import org.hapticsd.physics.Material;

/**
 * Surface properties of a body's shape (Springhead manual §7.7): elasticity e, static friction μ0 and dynamic
 * friction μ. A contact uses the mean of the two shapes' values. The defaults are the engine's
 * ({@link Material#DEFAULT}): frictionless and inelastic, so a haptic wall without a material renders exactly
 * k·d along its normal.
 */
public final class MaterialSpec {
    public static final double DEFAULT_ELASTICITY = Material.DEFAULT.elasticity();
    public static final double DEFAULT_STATIC_FRICTION = Material.DEFAULT.staticFriction();
    public static final double DEFAULT_DYNAMIC_FRICTION = Material.DEFAULT.dynamicFriction();

    private double elasticity = DEFAULT_ELASTICITY;
    private double staticFriction = DEFAULT_STATIC_FRICTION;
    private double dynamicFriction = DEFAULT_DYNAMIC_FRICTION;
    private boolean transients;
    private double transientGain = 1.0;
    private VibrationSpec vibration;
    private MagnetSpec magnet;
    private double viscosityNspm;
    private StickSlipSpec stickSlip;
    private TextureSpec texture;

    public void setElasticity(double value) {
        Check.nonNegative("elasticity", value);
        if (value > 1.0) {
            throw new IllegalArgumentException("elasticity must be <= 1 (a contact cannot add energy), got " + value);
        }
        this.elasticity = value;
    }

    public void setStaticFriction(double value) {
        this.staticFriction = Check.nonNegative("staticFriction", value);
    }

    public void setDynamicFriction(double value) {
        this.dynamicFriction = Check.nonNegative("dynamicFriction", value);
    }

    public void setTransients(boolean value) {
        this.transients = value;
    }

    public void setTransientGain(double value) {
        this.transientGain = Check.nonNegative("transientGain", value);
    }

    /** The tool touching this material feels it vibrate ({@code {frequencyHz, amplitudeN}}). */
    public void setVibration(VibrationSpec value) {
        this.vibration = value;
    }

    /** The vibration the tool feels while touching this material, or null for none. */
    public VibrationSpec vibration() {
        return vibration;
    }

    /** The surface pulls the tool in while it is near ({@code {maxForceN, distanceM}}). */
    public void setMagnet(MagnetSpec value) {
        this.magnet = value;
    }

    /** This material's magnet, or null for none. */
    public MagnetSpec magnet() {
        return magnet;
    }

    /** The hand is damped by {@code −b·v} while the tool overlaps the body. */
    public void setViscosityNspm(double value) {
        this.viscosityNspm = Check.nonNegative("viscosityNspm", value);
    }

    /** N·s/m; 0 for none. */
    public double viscosityNspm() {
        return viscosityNspm;
    }

    /** The surface holds the hand where it stuck until a largest force ({@code {stiffnessNpm, maxForceN}}). */
    public void setStickSlip(StickSlipSpec value) {
        this.stickSlip = value;
    }

    /** This material's stick-slip, or null for none. */
    public StickSlipSpec stickSlip() {
        return stickSlip;
    }

    /** The surface is felt as a grating ({@code {periodM, amplitudeM, direction}}). */
    public void setTexture(TextureSpec value) {
        this.texture = value;
    }

    /** This material's grating texture, or null for none. */
    public TextureSpec texture() {
        return texture;
    }

    /** Whether the tool striking this material plays an impact transient (off unless the scene turns it on). */
    public boolean transients() {
        return transients;
    }

    /** The factor on the force of this material's impact transients. */
    public double transientGain() {
        return transientGain;
    }

    public double elasticity() {
        return elasticity;
    }

    public double staticFriction() {
        return staticFriction;
    }

    public double dynamicFriction() {
        return dynamicFriction;
    }

    public Material toMaterial() {
        return new Material(elasticity, staticFriction, dynamicFriction);
    }
}
