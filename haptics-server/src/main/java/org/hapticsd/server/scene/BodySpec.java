package org.hapticsd.server.scene;

/** A named static body: a shape at a pose in the scene. */
public final class BodySpec extends Located {
    private String name;
    private ShapeSpec shape;
    private double[] positionM = {0.0, 0.0, 0.0};
    private double[] orientation = {1.0, 0.0, 0.0, 0.0};

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
