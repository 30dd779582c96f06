package org.hapticsd.physics;

/**
 * Thrown by {@link PhysicsWorld#step} when a body's state stopped being finite in that step: the message names the
 * bodies, which the world has taken out of the simulation (they stop moving and pushing). The world stays usable: the
 * next step goes on with the other bodies.
 */
public final class BodyStateLostException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public BodyStateLostException(String message) {
        super(message);
    }
}
