/**
 * Broadphase for scenes with many moving bodies: a dynamic AABB tree of fat boxes, updated in place as bodies move
 * and queried without allocating. Which pairs it yields, in what order, is decided above it, in
 * {@code org.hapticsd.physics.DynamicTreePairFinder}. Depends on nothing else in the engine.
 */
package org.hapticsd.physics.broadphase;
