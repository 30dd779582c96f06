package org.hapticsd.server.scene;

/** Device workspace → scene: {@code p_scene = origin + scale · R(rotation) · p_device}. */
public final class MappingSpec {
    private double[] originM = {0.0, 0.0, 0.0};
    private double[] rotation = {1.0, 0.0, 0.0, 0.0};
    private double scale = 1.0;

    public void setOrigin(double[] value) {
        this.originM = Check.vector3("origin", value);
    }

    public void setRotation(double[] value) {
        this.rotation = Check.quaternion("rotation", value);
    }

    public void setScale(double value) {
        this.scale = Check.size("scale", value);
    }

    public double[] originM() {
        return originM;
    }

    public double[] rotation() {
        return rotation;
    }

    public double scale() {
        return scale;
    }
}
