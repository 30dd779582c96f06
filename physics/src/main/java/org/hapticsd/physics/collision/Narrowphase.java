package org.hapticsd.physics.collision;

import java.util.IdentityHashMap;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * Exact contact between two posed shapes, written as a {@link ContactManifold}. One instance per world: it owns
 * the scratch vectors, so {@link #collide} allocates nothing.
 *
 * <p>Dispatch: each supported pair has one routine written for a canonical order; the reversed order calls it with
 * the shapes swapped and {@link ContactManifold#flip() flips} the result, so every routine is written once. The
 * canonical order is sphere, capsule, box, hull, mesh, plane; the routines:
 * <pre>
 *            sphere        capsule          box             hull            mesh           plane
 *  sphere    SphereContacts CapsuleContacts SphereContacts  SegmentPolytope MeshContacts   SphereContacts
 *  capsule                 CapsuleContacts  SegmentPolytope SegmentPolytope MeshContacts   CapsuleContacts
 *  box                                      BoxBoxContact   PolytopeContact MeshContacts   box–plane (here)
 *  hull                                                     PolytopeContact MeshContacts   PlaneContacts
 *  mesh, plane against mesh or plane: static geometry, IllegalArgumentException
 * </pre>
 *
 * <p>Hulls: the separating-axis test needs each hull's edge–face adjacency, built once per {@link ConvexHull} by
 * {@link #prepare}. Call it when a body is added; a hull met first inside {@link #collide} is prepared there, which
 * allocates once.
 */
public final class Narrowphase {
    /** Points up to this far apart are reported (with negative depth) so the solver can stop them meeting. */
    public static final double DEFAULT_MARGIN_M = 0.0;

    private final double marginM;

    private final Vector3d pointM = new Vector3d();
    private final Vector3d normal = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d axis = new Vector3d();
    private final Vector3d core0 = new Vector3d();
    private final Vector3d core1 = new Vector3d();

    private final IdentityHashMap<ConvexHull, HullFeatures> hulls = new IdentityHashMap<>();
    private final Polytope polytopeA = new Polytope(8, 6, 12);
    private final Polytope polytopeB = new Polytope(8, 6, 12);
    private final ContactCandidates candidates = new ContactCandidates(16);
    private final FaceClipper clipper = new FaceClipper(8);
    private final PolytopeContact polytopes = new PolytopeContact(clipper, candidates);
    private final BoxBoxContact boxBox = new BoxBoxContact(polytopeA, polytopeB, polytopes);
    private final SegmentPolytopeContact segmentPolytope = new SegmentPolytopeContact();
    private final CapsuleContacts capsules = new CapsuleContacts();
    private final TriangleContacts triangles = new TriangleContacts();
    private final PlaneContacts planes = new PlaneContacts(candidates);
    private final MeshContacts meshes = new MeshContacts(this, new ContactCandidates(64));

    /** A narrowphase reporting only penetrating points ({@link #DEFAULT_MARGIN_M}). */
    public Narrowphase() {
        this(DEFAULT_MARGIN_M);
    }

    /**
     * @param marginM gap within which points are reported with negative depth, for a speculative solver; finite
     *     and {@code >= 0}. Every routine applies it the same way: a point is reported iff {@code depth > −margin},
     *     and shapes further apart than the margin along any separating axis get no manifold.
     */
    public Narrowphase(double marginM) {
        if (!(marginM >= 0.0) || Double.isInfinite(marginM)) {
            throw new IllegalArgumentException("marginM must be finite and >= 0, was " + marginM);
        }
        this.marginM = marginM;
    }

    public double marginM() {
        return marginM;
    }

    /**
     * Builds what {@link #collide} needs for {@code shape} ahead of the first step: for a hull, its edge–face
     * adjacency, and room in the scratch buffers for its vertices and faces. Other shapes need nothing. A scene
     * operation: allocates.
     */
    public void prepare(Shape shape) {
        if (shape instanceof ConvexHullShape hullShape) {
            features(hullShape);
        }
    }

    /**
     * Tests shape {@code a} at {@code poseA} against {@code b} at {@code poseB}.
     *
     * <p>A convex shape against a triangle mesh tests every triangle near the shape (a bounding-sphere check, then
     * {@link #collideTriangle}), O(triangles); a world with large meshes queries its BVH and calls
     * {@link #collideMesh} with the candidates instead.
     *
     * @return {@code true} when the manifold holds at least one point
     * @throws IllegalArgumentException for a pair this engine does not test (plane–plane, mesh–mesh, mesh–plane)
     */
    public boolean collide(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        out.clear();
        if (order(a) > order(b)) {
            boolean hit = collideOrdered(b, poseB, a, poseA, out);
            if (hit) {
                out.flip();
            }
            return hit;
        }
        return collideOrdered(a, poseA, b, poseB, out);
    }

    /**
     * Shape {@code a} against the triangle abc (world, counter-clockwise seen from its front), the triangle being
     * B: the normal points from the triangle toward a and the points lie on the triangle.
     *
     * <p>One-sided: a shape whose centre (the body position; a hull's vertex mean) is strictly behind the
     * triangle's plane gets no contact; in front, spheres and capsules use the closest point of the triangle, so edges and
     * vertices push along their own normals, and boxes and hulls use the separating-axis test (triangle normal,
     * their face normals, edge crosses) with face clipping. A degenerate (zero-area) triangle gets no contact.
     *
     * @throws IllegalArgumentException when {@code a} is a plane or a mesh
     */
    public boolean collideTriangle(Shape a, Transform poseA, double ax, double ay, double az,
                                   double bx, double by, double bz, double cx, double cy, double cz,
                                   ContactManifold out) {
        out.clear();
        if (a instanceof SphereShape sphere) {
            return triangles.sphereTriangle(poseA.position().x(), poseA.position().y(), poseA.position().z(),
                sphere.radiusM(), ax, ay, az, bx, by, bz, cx, cy, cz, marginM, out);
        }
        if (a instanceof CapsuleShape capsule) {
            if (!polytopeB.setTriangle(ax, ay, az, bx, by, bz, cx, cy, cz)) {
                return false;
            }
            // The core's middle is the body position, exactly.
            if (heightOverTriangle(poseA.position().x(), poseA.position().y(), poseA.position().z()) < 0.0) {
                return false;
            }
            CapsuleContacts.core(capsule, poseA, core0, core1);
            return segmentPolytope.collide(core0.x, core0.y, core0.z, core1.x, core1.y, core1.z, capsule.radiusM(),
                capsule.halfLengthM() == 0.0, polytopeB, marginM, out);
        }
        if (a instanceof BoxShape box) {
            polytopeA.setBox(box, poseA);
        } else if (a instanceof ConvexHullShape hull) {
            polytopeA.setHull(features(hull), poseA);
        } else {
            throw new IllegalArgumentException("no triangle contact test for " + a.getClass().getSimpleName());
        }
        if (!polytopeB.setTriangle(ax, ay, az, bx, by, bz, cx, cy, cz)
            || heightOverTriangle(polytopeA.centroidX, polytopeA.centroidY, polytopeA.centroidZ) < 0.0) {
            return false;
        }
        return polytopes.collide(polytopeA, polytopeB, marginM, out);
    }

    /**
     * Shape {@code a} against the listed triangles of {@code mesh} posed at {@code poseMesh}, merged into one
     * manifold: the normal of the deepest triangle contact; the points of every triangle contact along that same
     * normal, and of face contacts (along their triangle's own normal) within 20° of it; reduced to the vertices of
     * their contact polygon. Edge and vertex contacts of the other triangles are dropped as likely inner-edge ghosts.
     * See {@link MeshContacts} for the limits of one normal per pair. Meant for the candidates of a BVH query.
     * Feature ids mix the triangle index in.
     *
     * @param triangleIndices indices of the triangles to test, {@code triangleIndices[0 .. triangleCount)}
     * @throws IllegalArgumentException when {@code a} is a plane or a mesh
     */
    public boolean collideMesh(Shape a, Transform poseA, TriangleMeshShape mesh, Transform poseMesh,
                               int[] triangleIndices, int triangleCount, ContactManifold out) {
        out.clear();
        return meshes.collide(a, poseA, boundingRadiusM(a), mesh.mesh(), poseMesh, triangleIndices, triangleCount,
            marginM, out);
    }

    /** Canonical order of shapes in a pair: the routine for (x, y) exists for order(x) <= order(y). */
    private static int order(Shape shape) {
        if (shape instanceof SphereShape) {
            return 0;
        }
        if (shape instanceof CapsuleShape) {
            return 1;
        }
        if (shape instanceof BoxShape) {
            return 2;
        }
        if (shape instanceof ConvexHullShape) {
            return 3;
        }
        if (shape instanceof TriangleMeshShape) {
            return 8;
        }
        return 9;
    }

    private boolean collideOrdered(Shape a, Transform poseA, Shape b, Transform poseB, ContactManifold out) {
        if (b instanceof TriangleMeshShape mesh && !(a instanceof TriangleMeshShape)) {
            return meshes.collide(a, poseA, boundingRadiusM(a), mesh.mesh(), poseB, null, 0, marginM, out);
        }
        if (a instanceof SphereShape sphere) {
            if (b instanceof SphereShape other) {
                return sphereSphere(sphere, poseA, other, poseB, out);
            }
            if (b instanceof CapsuleShape capsule) {
                return capsules.sphereCapsule(sphere, poseA, capsule, poseB, marginM, out);
            }
            if (b instanceof BoxShape box) {
                return sphereBox(sphere, poseA, box, poseB, out);
            }
            if (b instanceof ConvexHullShape hull) {
                polytopeB.setHull(features(hull), poseB);
                Vector3d c = scratch.set(poseA.position());
                return segmentPolytope.collide(c.x, c.y, c.z, c.x, c.y, c.z, sphere.radiusM(), true, polytopeB,
                    marginM, out);
            }
            if (b instanceof PlaneShape plane) {
                return spherePlane(sphere, poseA, plane, poseB, out);
            }
        }
        if (a instanceof CapsuleShape capsule) {
            if (b instanceof CapsuleShape other) {
                return capsules.capsuleCapsule(capsule, poseA, other, poseB, marginM, out);
            }
            if (b instanceof BoxShape box) {
                polytopeB.setBox(box, poseB);
                return capsulePolytope(capsule, poseA, out);
            }
            if (b instanceof ConvexHullShape hull) {
                polytopeB.setHull(features(hull), poseB);
                return capsulePolytope(capsule, poseA, out);
            }
            if (b instanceof PlaneShape plane) {
                double offsetM = planeInWorld(plane, poseB);
                return capsules.capsulePlane(capsule, poseA, axis, offsetM, marginM, out);
            }
        }
        if (a instanceof BoxShape box) {
            if (b instanceof BoxShape other) {
                return boxBox.collide(box, poseA, other, poseB, marginM, out);
            }
            if (b instanceof ConvexHullShape hull) {
                HullFeatures features = features(hull);
                polytopeA.setBox(box, poseA);
                polytopeB.setHull(features, poseB);
                return polytopes.collide(polytopeA, polytopeB, marginM, out);
            }
            if (b instanceof PlaneShape plane) {
                return boxPlane(box, poseA, plane, poseB, out);
            }
        }
        if (a instanceof ConvexHullShape hull) {
            if (b instanceof ConvexHullShape other) {
                HullFeatures featuresA = features(hull);
                HullFeatures featuresB = features(other);
                polytopeA.setHull(featuresA, poseA);
                polytopeB.setHull(featuresB, poseB);
                return polytopes.collide(polytopeA, polytopeB, marginM, out);
            }
            if (b instanceof PlaneShape plane) {
                polytopeA.setHull(features(hull), poseA);
                double offsetM = planeInWorld(plane, poseB);
                return planes.polytopePlane(polytopeA, axis, offsetM, marginM, out);
            }
        }
        throw new IllegalArgumentException("no contact test for " + a.getClass().getSimpleName() + " against "
            + b.getClass().getSimpleName());
    }

    private boolean capsulePolytope(CapsuleShape capsule, Transform poseA, ContactManifold out) {
        CapsuleContacts.core(capsule, poseA, core0, core1);
        return segmentPolytope.collide(core0.x, core0.y, core0.z, core1.x, core1.y, core1.z, capsule.radiusM(),
            capsule.halfLengthM() == 0.0, polytopeB, marginM, out);
    }

    /** The plane's world normal into {@link #axis}; returns its offset d of n·x = d. */
    private double planeInWorld(PlaneShape plane, Transform pose) {
        pose.rotate(plane.normal(), axis);
        return axis.dot(pose.position());
    }

    /** Signed height of a point over the triangle held in {@link #polytopeB}. */
    private double heightOverTriangle(double x, double y, double z) {
        double[] plane = polytopeB.facePlane;
        return plane[0] * x + plane[1] * y + plane[2] * z - plane[3];
    }

    /** Radius of a ball around the body position that holds the shape: the mesh routine's cheap reject. */
    private double boundingRadiusM(Shape shape) {
        if (shape instanceof SphereShape sphere) {
            return sphere.radiusM();
        }
        if (shape instanceof CapsuleShape capsule) {
            return capsule.halfLengthM() + capsule.radiusM();
        }
        if (shape instanceof BoxShape box) {
            return Math.sqrt(box.halfXM() * box.halfXM() + box.halfYM() * box.halfYM() + box.halfZM() * box.halfZM());
        }
        if (shape instanceof ConvexHullShape hull) {
            return features(hull).boundingRadiusM;
        }
        throw new IllegalArgumentException("no triangle contact test for " + shape.getClass().getSimpleName());
    }

    /** The hull's features, built and the scratch buffers grown on first sight (a scene-change allocation). */
    private HullFeatures features(ConvexHullShape shape) {
        HullFeatures features = hulls.get(shape.hull());
        if (features == null) {
            features = new HullFeatures(shape.hull());
            hulls.put(shape.hull(), features);
            polytopeA.ensureCapacity(features);
            polytopeB.ensureCapacity(features);
            int maxFace = features.maxFaceVertexCount;
            for (HullFeatures other : hulls.values()) {
                maxFace = Math.max(maxFace, other.maxFaceVertexCount);
            }
            clipper.ensureCapacity(maxFace, maxFace);
            candidates.ensureCapacity(Math.max(features.vertexCount, 2 * maxFace));
            segmentPolytope.ensureCapacity(features.faceCount);
        }
        return features;
    }

    private boolean sphereSphere(SphereShape a, Transform poseA, SphereShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsSphere(poseA.position(), a.radiusM(), poseB.position(), b.radiusM(),
            pointM, normal);
        return single(depth, out, 1);
    }

    private boolean spherePlane(SphereShape a, Transform poseA, PlaneShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsPlane(poseA.position(), a.radiusM(), poseB.position(),
            poseB.rotation(), b.normal(), pointM, normal);
        return single(depth, out, 1);
    }

    private boolean sphereBox(SphereShape a, Transform poseA, BoxShape b, Transform poseB, ContactManifold out) {
        double depth = SphereContacts.sphereVsBox(poseA.position(), a.radiusM(), poseB.position(), poseB.rotation(),
            b.halfXM(), b.halfYM(), b.halfZM(), pointM, normal);
        return single(depth, out, 1);
    }

    private boolean single(double depthM, ContactManifold out, int featureId) {
        if (!(depthM > -marginM)) {
            return false;
        }
        out.normal.set(normal);
        out.addPoint(pointM, depthM, featureId);
        return true;
    }

    /**
     * Box against a half-space: every box vertex below the plane is a contact point (its projection on the plane),
     * so a box resting flat gets the four corners of its face, the intersection polygon of Springhead's model.
     * The feature id is the vertex index + 1, stable while the box rests.
     */
    private boolean boxPlane(BoxShape a, Transform poseA, PlaneShape b, Transform poseB, ContactManifold out) {
        double planeOffsetM = planeInWorld(b, poseB);
        for (int i = 0; i < 8; i++) {
            double x = (i & 1) == 0 ? -a.halfXM() : a.halfXM();
            double y = (i & 2) == 0 ? -a.halfYM() : a.halfYM();
            double z = (i & 4) == 0 ? -a.halfZM() : a.halfZM();
            poseA.toWorld(x, y, z, scratch);
            double depthM = planeOffsetM - axis.dot(scratch);
            if (depthM > -marginM) {
                out.addPoint(scratch.x + axis.x * depthM, scratch.y + axis.y * depthM, scratch.z + axis.z * depthM,
                    depthM, i + 1);
            }
        }
        if (out.pointCount() == 0) {
            return false;
        }
        out.normal.set(axis);
        return true;
    }
}
