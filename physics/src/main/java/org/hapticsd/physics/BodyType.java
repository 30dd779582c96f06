package org.hapticsd.physics;

/**
 * How a body moves.
 *
 * <p>A static body never moves and has no velocity; a kinematic body moves only because its owner sets its pose
 * and velocity (the haptic tool, driven by the device every tick): the world never integrates it and contact
 * forces do not change its motion, they are only reported.
 */
public enum BodyType {
    /** Fixed in the world: walls, floors, fixtures. Static–static pairs are never tested. */
    STATIC,
    /** Pose and velocity set from outside every step (the haptic tool). */
    KINEMATIC
}
