/**
 * Broadphase (candidate pairs from bounds) and narrowphase (exact contact manifolds). Allocation-free per step;
 * depends on {@code geometry} only.
 *
 * <p>Narrowphase layout: {@link org.hapticsd.physics.collision.Narrowphase} dispatches each pair to one routine
 * class ({@code SphereContacts}, {@code CapsuleContacts}, {@code SegmentPolytopeContact}, {@code BoxBoxContact},
 * {@code PolytopeContact}, {@code PlaneContacts}, {@code TriangleContacts}, {@code MeshContacts}). Polyhedral
 * shapes (box, hull, triangle) are read through one world-space view, {@code Polytope}; face contacts are clipped
 * by {@code FaceClipper}; more points than a manifold holds are reduced by {@code ContactCandidates}; feature ids
 * follow {@code FeatureIds}.
 */
package org.hapticsd.physics.collision;
