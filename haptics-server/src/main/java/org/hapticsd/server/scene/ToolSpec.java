package org.hapticsd.server.scene;

/** The haptic tool: a sphere that follows the mapped device position. */
public final class ToolSpec {
    private String name = "tool";
    private double radiusM = 0.005;

    public void setName(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        // As a body's: contactModes entries name it, and messages quote it (a newline in it split them, a tester).
        if (!value.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("name must start with a letter and contain only letters, digits, "
                + "'_' and '-', got '" + value.replace("\n", "\\n") + "'");
        }
        this.name = value;
    }

    public void setRadiusM(double value) {
        this.radiusM = Check.size("radiusM", value);
    }

    public String name() {
        return name;
    }

    public double radiusM() {
        return radiusM;
    }
}
