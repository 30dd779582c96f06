/**
 * Rigid-body dynamics: per-body state ({@link org.hapticsd.physics.dynamics.RigidBodies}), the semi-implicit
 * Euler integrator with an energy-conserving gyroscopic step, and the contact point store
 * ({@link org.hapticsd.physics.dynamics.ContactPoints}) that the contact models of
 * {@link org.hapticsd.physics.dynamics.contact} read and write.
 *
 * <p>Internal to the engine: {@code PhysicsWorld} is the API. Like {@code collision}, which reads the shape
 * records, this package reads the public value types of {@code org.hapticsd.physics} ({@code StepContext},
 * {@code ContactSettings}, {@code ContactMode}, {@code BodyType}) and nothing else of it. Nothing here allocates
 * per step once its buffers have grown to the scene's largest contact set.
 */
package org.hapticsd.physics.dynamics;
