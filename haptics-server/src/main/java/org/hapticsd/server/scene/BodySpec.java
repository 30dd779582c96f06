package org.hapticsd.server.scene;

/**
 * A named body: a shape at a pose in the scene, static (the default), kinematic (moves only as scripted) or
 * dynamic (moved by gravity and contacts).
 */
public final class BodySpec extends Located {
    /** How a body moves. */
    public enum Motion { STATIC, KINEMATIC, DYNAMIC }

    private String name;
    private ShapeSpec shape;
    private double[] positionM = {0.0, 0.0, 0.0};
    private double[] orientation = {1.0, 0.0, 0.0, 0.0};
    private Motion motion = Motion.STATIC;
    private double massKg = Double.NaN;
    private double densityKgpm3 = Double.NaN;
    private double[] velocityMps = {0.0, 0.0, 0.0};
    private double[] angularVelocityRadps = {0.0, 0.0, 0.0};
    private double linearDampingPerS;
    private double angularDampingPerS;
    private MaterialSpec material = new MaterialSpec();
    private String group;
    private GrabSpec grab;

    public void setName(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        if (!value.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("name must start with a letter and contain only letters, digits, "
                + "'_' and '-' (it names CSV columns), got '" + value + "'");
        }
        this.name = value;
    }

    public void setShape(ShapeSpec value) {
        this.shape = value;
    }

    public void setPosition(double[] value) {
        this.positionM = Check.vector3("position", value);
    }

    public void setOrientation(double[] value) {
        this.orientation = Check.quaternion("orientation", value);
    }

    public void setMotion(String value) {
        try {
            this.motion = Motion.valueOf(value.toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("motion must be static, kinematic or dynamic, got '" + value + "'");
        }
    }

    /** Total mass of a dynamic body; give this or {@code densityKgpm3}, not both. */
    public void setMassKg(double value) {
        this.massKg = Check.positive("massKg", value);
    }

    /** Density of a dynamic body's shape, mass = density × volume. */
    public void setDensityKgpm3(double value) {
        this.densityKgpm3 = Check.positive("densityKgpm3", value);
    }

    public void setVelocity(double[] value) {
        this.velocityMps = Check.vector3("velocity", value);
    }

    public void setAngularVelocity(double[] value) {
        this.angularVelocityRadps = Check.vector3("angularVelocity", value);
    }

    public void setLinearDampingPerS(double value) {
        this.linearDampingPerS = Check.nonNegative("linearDampingPerS", value);
    }

    public void setAngularDampingPerS(double value) {
        this.angularDampingPerS = Check.nonNegative("angularDampingPerS", value);
    }

    public void setMaterial(MaterialSpec value) {
        this.material = value == null ? new MaterialSpec() : value;
    }

    /** {@code grab}: the stylus grabs this (dynamic) body while a button is held. */
    public void setGrab(GrabSpec value) {
        this.grab = value;
    }

    public GrabSpec grab() {
        return grab;
    }

    public void setGroup(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("group must not be blank");
        }
        this.group = value;
    }

    public Motion motion() {
        return motion;
    }

    public double massKg() {
        return massKg;
    }

    public double densityKgpm3() {
        return densityKgpm3;
    }

    public double[] velocityMps() {
        return velocityMps;
    }

    public double[] angularVelocityRadps() {
        return angularVelocityRadps;
    }

    public double linearDampingPerS() {
        return linearDampingPerS;
    }

    public double angularDampingPerS() {
        return angularDampingPerS;
    }

    public MaterialSpec material() {
        return material;
    }

    public String group() {
        return group;
    }

    public String name() {
        return name;
    }

    public ShapeSpec shape() {
        return shape;
    }

    public double[] positionM() {
        return positionM;
    }

    public double[] orientation() {
        return orientation;
    }
}
