package org.hapticsd.server.render;

import org.hapticsd.device.DeviceState;
import org.joml.Quaterniond;
import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Maps the device's workspace into the scene and rendered forces back onto the device.
 *
 * <p>{@code p_scene = origin + s·R·p_device}, {@code v_scene = s·R·v_device}. Forces go back as
 * {@code F_device = s·Rᵀ·F_scene}: with that factor the power the user puts into the device equals the power the
 * tool puts into the scene ({@code F_device·v_device = F_scene·v_scene}), so scaling the workspace does not
 * create or destroy energy and a passive scene stays passive on the device. A scale above 1 therefore also
 * scales the felt stiffness by s²; the safety layer's clamp still bounds the force.
 */
public final class DeviceMapping {
    private final Vector3d originM = new Vector3d();
    private final Quaterniond rotation = new Quaterniond();
    private final double scale;
    private final Vector3d scratch = new Vector3d();

    public DeviceMapping(Vector3dc originM, Quaterniondc rotation, double scale) {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("mapping scale must be > 0 and finite, got " + scale);
        }
        this.originM.set(originM);
        this.rotation.set(rotation).normalize();
        this.scale = scale;
    }

    public static DeviceMapping identity() {
        return new DeviceMapping(new Vector3d(), new Quaterniond(), 1.0);
    }

    /** Tool position and velocity in the scene for a device state. Allocation-free. */
    public void deviceToScene(DeviceState state, Vector3d positionDestM, Vector3d velocityDestMps) {
        rotation.transform(scratch.set(state.positionXM, state.positionYM, state.positionZM));
        positionDestM.set(scratch).mul(scale).add(originM);
        rotation.transform(scratch.set(state.velocityXMps, state.velocityYMps, state.velocityZMps));
        velocityDestMps.set(scratch).mul(scale);
    }

    /** Force to command on the device for a force acting on the tool in the scene. Safe when dest == force. */
    public Vector3d sceneForceToDevice(Vector3dc forceN, Vector3d destN) {
        return rotation.transformInverse(forceN, destN).mul(scale);
    }

    /**
     * The inverse of {@link #sceneForceToDevice}: a device-frame force as it acts in the scene. Uses no scratch
     * state, so viewer threads may call it while the loop runs.
     */
    public Vector3d deviceForceToScene(Vector3dc forceN, Vector3d destN) {
        return rotation.transform(forceN, destN).div(scale);
    }

    /**
     * The tool's scene position for a device position: the position part of {@link #deviceToScene}. Uses no scratch
     * state (any thread); safe when {@code destM == deviceM}.
     */
    public Vector3d devicePointToScene(Vector3dc deviceM, Vector3d destM) {
        return rotation.transform(deviceM, destM).mul(scale).add(originM);
    }

    /**
     * The device position whose tool lands on {@code sceneM}: the inverse of the position part of
     * {@link #deviceToScene}. Uses no scratch state (any thread); safe when {@code destM == sceneM}.
     */
    public Vector3d scenePointToDevice(Vector3dc sceneM, Vector3d destM) {
        return rotation.transformInverse(destM.set(sceneM).sub(originM)).div(scale);
    }

    public double scale() {
        return scale;
    }
}
