/**
 * Haptic physics: a world of static bodies and kinematic haptic tools, stepped once per tick of the real-time
 * loop without allocating, whose contact force on each tool is the force to render.
 *
 * <p>This package holds the public model ({@link org.hapticsd.physics.PhysicsWorld}, shapes, settings, contact
 * and profile views). The algorithms sit below it in layers, as in dyn4j: {@code geometry} (bounds),
 * {@code collision} (broadphase and contact tests), {@code dynamics} (contact laws). Each layer works on plain
 * numbers and JOML vectors and depends only on the layers under it, never on this package.
 */
package org.hapticsd.physics;
