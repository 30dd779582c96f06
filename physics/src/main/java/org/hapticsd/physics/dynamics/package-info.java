/**
 * Rigid-body dynamics: per-body state ({@link org.hapticsd.physics.dynamics.RigidBodies}), the semi-implicit
 * Euler integrator with an energy-conserving gyroscopic step, the contact point store and its warm-start memory,
 * and one {@link org.hapticsd.physics.dynamics.ContactSolver} per contact mode: projected Gauss–Seidel for LCP
 * contacts, the spring–damper law for penalty contacts, both following Springhead's contact model (seed 002) and
 * the constraint formulation of source 003.
 *
 * <p>Internal to the engine: {@code PhysicsWorld} is the API. Like {@code collision}, which reads the shape
 * records, this package reads the public value types of {@code org.hapticsd.physics} ({@code StepContext},
 * {@code ContactSettings}, {@code ContactMode}, {@code BodyType}) and nothing else of it. Nothing here allocates
 * per step once its buffers have grown to the scene's largest contact set.
 */
package org.hapticsd.physics.dynamics;
