/**
 * Broadphase (candidate pairs from bounds) and narrowphase (exact contact tests returning signed depth, point and
 * normal). Stateless and allocation-free; depends on {@code geometry} only.
 */
package org.hapticsd.physics.collision;
