package org.hapticsd.device;

/** Axis-aligned box, in metres in the device frame, that the device's end effector can reach. */
public record Workspace(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {

    public Workspace {
        if (!(minX < maxX && minY < maxY && minZ < maxZ)) {
            throw new IllegalArgumentException("workspace min must be below max on every axis");
        }
    }

    /** A box centred on the origin with the given half-size on every axis. */
    public static Workspace cube(double halfSizeM) {
        return new Workspace(-halfSizeM, -halfSizeM, -halfSizeM, halfSizeM, halfSizeM, halfSizeM);
    }

    public boolean contains(double x, double y, double z) {
        return x >= minX && x <= maxX && y >= minY && y <= maxY && z >= minZ && z <= maxZ;
    }
}
