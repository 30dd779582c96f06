package org.hapticsd.physics.geometry;

import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A rigid pose: position and unit-quaternion orientation, with the rotation matrix kept alongside so that the
 * narrowphase, which transforms many points per pair, pays one quaternion-to-matrix conversion per body per step
 * instead of one per point. Mutable and allocation-free; every method that writes takes a destination that may
 * alias its input.
 */
public final class Transform {
    private final Vector3d positionM = new Vector3d();
    private final Quaterniond rotation = new Quaterniond();
    private final Matrix3d matrix = new Matrix3d();

    /** Identity pose. */
    public Transform() {
    }

    public Transform set(Vector3dc positionM, Quaterniondc rotation) {
        this.positionM.set(positionM);
        this.rotation.set(rotation);
        this.matrix.set(this.rotation);
        return this;
    }

    public Transform set(Transform other) {
        positionM.set(other.positionM);
        rotation.set(other.rotation);
        matrix.set(other.matrix);
        return this;
    }

    public Vector3dc position() {
        return positionM;
    }

    public Quaterniondc rotation() {
        return rotation;
    }

    /** Rotation matrix R: world = R · local + position. */
    public Matrix3d matrix(Matrix3d dest) {
        return dest.set(matrix);
    }

    /** Column {@code axis} (0, 1, 2) of R: the body's local x, y or z axis in the world. */
    public Vector3d axis(int axis, Vector3d dest) {
        return matrix.getColumn(axis, dest);
    }

    /** world = R · local + position. */
    public Vector3d toWorld(Vector3dc localM, Vector3d destM) {
        return matrix.transform(localM, destM).add(positionM);
    }

    /** world = R · (x, y, z) + position. */
    public Vector3d toWorld(double x, double y, double z, Vector3d destM) {
        return matrix.transform(destM.set(x, y, z)).add(positionM);
    }

    /** local = Rᵀ · (world − position). */
    public Vector3d toLocal(Vector3dc worldM, Vector3d destM) {
        return matrix.transformTranspose(destM.set(worldM).sub(positionM));
    }

    /** R · direction. */
    public Vector3d rotate(Vector3dc localDirection, Vector3d dest) {
        return matrix.transform(localDirection, dest);
    }

    /** Rᵀ · direction. */
    public Vector3d unrotate(Vector3dc worldDirection, Vector3d dest) {
        return matrix.transformTranspose(worldDirection, dest);
    }
}
