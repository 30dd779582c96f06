package org.hapticsd.server.scene;

import java.util.List;

/**
 * The simulated stylus's virtual hand: a spring-damper toward a target that follows {@code path}, or sits at
 * {@code target} when there is no path.
 */
public final class HandSpec {
    private double stiffnessNpm = 200.0;
    private double dampingNspm = 6.0;
    private double[] targetM = {0.0, 0.0, 0.0};
    private List<WaypointSpec> path = List.of();
    private boolean loop;

    public void setStiffnessNpm(double value) {
        this.stiffnessNpm = Check.positive("stiffnessNpm", value);
    }

    public void setDampingNspm(double value) {
        this.dampingNspm = Check.nonNegative("dampingNspm", value);
    }

    public void setTarget(double[] value) {
        this.targetM = Check.vector3("target", value);
    }

    public void setPath(List<WaypointSpec> value) {
        this.path = value == null ? List.of() : List.copyOf(value);
    }

    public void setLoop(boolean value) {
        this.loop = value;
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    public double[] targetM() {
        return targetM;
    }

    public List<WaypointSpec> path() {
        return path;
    }

    public boolean loop() {
        return loop;
    }
}
