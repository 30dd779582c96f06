/** Bounding volumes over flat arrays: the first layer under {@link org.hapticsd.physics.PhysicsWorld}. */
package org.hapticsd.physics.geometry;
