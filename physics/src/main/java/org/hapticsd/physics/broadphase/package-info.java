/**
 * Broadphase for scenes with many moving bodies: candidate pairs from flat bounds arrays by sweep and prune,
 * allocation-free per step and deterministic in its output order. Depends on {@code geometry} only.
 */
package org.hapticsd.physics.broadphase;
