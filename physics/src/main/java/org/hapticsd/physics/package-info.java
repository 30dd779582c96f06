/**
 * The rigid-body contact engine: a world of dynamic, kinematic and static bodies and kinematic haptic tools,
 * stepped once per tick of the real-time loop without allocating; the contact force on a tool is the force to
 * render.
 *
 * <p>This package holds the public model ({@link org.hapticsd.physics.PhysicsWorld}, shapes, materials, contact
 * settings and modes, contact and profile views) and the adapters that plug the layers into the world's step.
 * The algorithms sit below it in layers, as in dyn4j: {@code geometry} (poses, bounds, convex hulls, meshes and
 * their bounding-volume hierarchy), {@code mass} (mass properties, exact tetrahedral integrals), {@code io} (OBJ
 * and STL), {@code broadphase} (a dynamic AABB tree), {@code collision} (narrowphase contact manifolds for every
 * pair of shapes), {@code dynamics} (integration and the Springhead contact model, solved as an LCP by projected
 * Gauss–Seidel or with penalty springs). Each layer works on plain numbers, JOML vectors and the shape records and
 * does not call up into the world.
 *
 * <p>A step runs the stages of {@link org.hapticsd.physics.StepStage} in order, each timed into
 * {@link org.hapticsd.physics.StepProfile}.
 */
package org.hapticsd.physics;
