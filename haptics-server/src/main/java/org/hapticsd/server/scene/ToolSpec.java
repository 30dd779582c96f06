package org.hapticsd.server.scene;

/** The haptic tool: a sphere that follows the mapped device position. */
public final class ToolSpec {
    private String name = "tool";
    private double radiusM = 0.005;

    public void setName(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        this.name = value;
    }

    public void setRadiusM(double value) {
        this.radiusM = Check.positive("radiusM", value);
    }

    public String name() {
        return name;
    }

    public double radiusM() {
        return radiusM;
    }
}
