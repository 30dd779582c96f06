package org.hapticsd.physics;

/**
 * What the bodies' current poses ask of the contact storage ({@link PhysicsWorld#contactNeed()}): the pairs whose
 * bounds overlap (with at least one movable body) and the contact points their exact tests give.
 *
 * @param pairs candidate pairs, as the broadphase would list them
 * @param points contact points of those pairs that collide in some mode
 */
public record ContactNeed(long pairs, long points) {
}
