/**
 * Mass, centre of mass and inertia tensor of uniform solids: closed forms for spheres, boxes and capsules, exact
 * tetrahedral decomposition for convex hulls and closed meshes. Computed once when a body is created; depends on
 * {@code geometry} and the shape records.
 */
package org.hapticsd.physics.mass;
