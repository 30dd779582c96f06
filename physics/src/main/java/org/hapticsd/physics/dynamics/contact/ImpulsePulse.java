package org.hapticsd.physics.dynamics.contact;

import org.joml.Vector3d;

/**
 * One collision of {@link ImpulseWaveformModel} in progress: the pair, its {@link ImpulseCollision}, and where it
 * acts this step. Preallocated in a pool and reused.
 */
final class ImpulsePulse {
    final ImpulseCollision collision = new ImpulseCollision();
    int bodyA;
    int bodyB;
    /** The collision point now, m, and B's lever arm to it: see {@link ImpulseCollision#play}. */
    final Vector3d pointM = new Vector3d();
    final Vector3d rBNow = new Vector3d();
    /** This step's first contact point of the pair, or −1 when the pair has none (separating during restitution). */
    int point;
}
