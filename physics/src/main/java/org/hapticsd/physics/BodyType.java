package org.hapticsd.physics;

/**
 * How a body moves.
 *
 * <p>A static body never moves and has no velocity. A kinematic body moves only because its owner sets its pose
 * and velocity (the haptic tool, driven by the device every tick, or a scripted body): the world never integrates
 * it and contacts never change its motion; they are only reported, and it acts on dynamic bodies as an infinite
 * mass. A dynamic body is integrated from gravity and contact forces.
 *
 * <p>Constants are only ever appended: the ordinal of each stays what it was.
 */
public enum BodyType {
    /** Fixed in the world: walls, floors, fixtures. Static–static pairs are never tested. */
    STATIC,
    /** Pose and velocity set from outside (the haptic tool, a scripted body); an infinite mass to contacts. */
    KINEMATIC,
    /** Moved by the world: gravity, contact forces and impulses, integrated every step. */
    DYNAMIC
}
