package org.hapticsd.server.scene;

import java.util.Locale;

/**
 * {@code guide}: a virtual fixture that pulls the hand onto a point, a line or a plane (render.Guide): the kind, a
 * point on it, the line's direction or the plane's normal, and the spring and damper across it.
 */
public final class GuideSpec extends Located {
    private String type;
    private double[] pointM = {0.0, 0.0, 0.0};
    private double[] direction;
    private double[] normal;
    private double stiffnessNpm = 200.0;
    private double dampingNspm = 1.0;

    public void setType(String value) {
        String lower = value == null ? "" : value.toLowerCase(Locale.ROOT);
        if (!lower.equals("point") && !lower.equals("line") && !lower.equals("plane")) {
            throw new IllegalArgumentException("type must be point, line or plane, got '" + value + "'");
        }
        this.type = lower;
    }

    public void setPoint(double[] value) {
        this.pointM = Check.vector3("point", value);
    }

    /** A line's direction. */
    public void setDirection(double[] value) {
        this.direction = Check.vector3("direction", value);
    }

    /** A plane's normal. */
    public void setNormal(double[] value) {
        this.normal = Check.vector3("normal", value);
    }

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.nonNegative("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    String type() {
        return type;
    }

    double[] pointM() {
        return pointM.clone();
    }

    double[] direction() {
        return direction == null ? null : direction.clone();
    }

    double[] normal() {
        return normal == null ? null : normal.clone();
    }

    double stiffnessNpm() {
        return stiffnessNpm;
    }

    double dampingNspm() {
        return dampingNspm;
    }
}
