package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;

/**
 * A physics world with the body that stands for the device's tool and the mapping from device to scene.
 *
 * @param world    the simulation; owned by the loop once the loop starts
 * @param toolBody index of the tool body in {@code world}
 * @param mapping  device workspace → scene
 */
public record HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping) {
}
