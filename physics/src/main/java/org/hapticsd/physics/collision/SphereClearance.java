package org.hapticsd.physics.collision;

import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleBvh;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The surfaces a sphere could reach: for a centre {@code c}, a radius {@code r} and a reach {@code ρ}, one half-space
 * {@code n·x ≥ n·q + r} for each convex piece of the obstacles whose gap to the sphere is at most {@code ρ}, with
 * {@code q} the piece's surface point closest to {@code c} and {@code n} the unit normal from {@code q} toward
 * {@code c}. The obstacles are static or kinematic bodies of one world, at their poses of the moment of the query.
 *
 * <p>Why these half-spaces (Ruspini, Kolarov and Khatib, "The haptic display of complex graphical environments",
 * SIGGRAPH 1997, the constraint planes of a proxy): a convex piece lies wholly behind the plane through its closest
 * point {@code q} normal to {@code c − q} (the closest point of a convex set is its projection, so every point
 * {@code y} of it has {@code n·(y − q) ≤ 0}). A sphere whose centre {@code x} keeps {@code n·x ≥ n·q + r} therefore
 * never overlaps that piece, wherever it goes in the half-space. The half-space is exact for a flat face and
 * conservative near a curved surface, an edge or a corner: a caller that moves along it and asks again from the new
 * centre slides around the curve. A centre that is already inside a solid piece (a plane's half-space, a box, a
 * sphere, a capsule or a hull) gets the plane of its nearest exit, with a negative gap: the half-space then pushes
 * the sphere out that way.
 *
 * <p>Pieces: a plane, a sphere, a box, a capsule and a hull are each one piece; a triangle mesh is one piece per
 * triangle, one-sided as in the contacts: a centre behind a triangle's plane gets nothing from it (docs/scenes.md,
 * {@code type: mesh}), so a mesh stops what comes at it from the side its triangles face. A triangle that lies wholly
 * behind the plane of a nearer triangle of its mesh is left out: that plane already keeps the sphere off it (the
 * neighbours on a flat or convex stretch of surface).
 *
 * <p>At most {@link #capacity()} half-spaces are kept: past that, a nearer piece replaces the farthest kept, and
 * {@link #coveredReachM()} shrinks to the gap of the nearest piece left out, so that a sphere moving no farther than
 * the covered reach meets only pieces the query kept. A mesh whose triangles near the sphere are more than
 * {@value #MAX_TRIANGLES} for the reach asked is asked again with half the reach, down to none (then its first
 * {@value #MAX_TRIANGLES}, and a covered reach of zero: the sphere stays where it is); of its triangles within reach,
 * the {@value #NEAREST} nearest are taken. Loop thread only: allocates only in its constructor.
 */
public final class SphereClearance {

    /**
     * Triangles of one mesh examined per query: cells down to about a sixteenth of the sphere's radius fit within
     * its bounds.
     */
    private static final int MAX_TRIANGLES = 1024;
    /** Mesh pieces taken per query, the nearest; the covered reach ends at the nearest of the rest. */
    private static final int NEAREST = 64;

    private final PhysicsWorld world;
    private final int[] obstacles;
    private final TriangleBvh[] hierarchies;
    /** Per mesh obstacle, its triangles' corner normals for force shading (9 per triangle, body frame), or null. */
    private final double[][] cornerNormals;

    private final double[] normals;
    private final double[] shadedNormals;
    private final double[] offsetsM;
    private final double[] gapsM;
    private final int[] bodies;
    private int count;
    private long dropped;
    private double coveredReachM;

    private final int[] triangles = new int[MAX_TRIANGLES];
    /** A mesh query's pieces before they are kept: body frame. */
    private final int[] pieceTriangle = new int[MAX_TRIANGLES];
    private final int[] pieceOrder = new int[MAX_TRIANGLES];
    private final double[] pieceGapM = new double[MAX_TRIANGLES];
    private final double[] piecePointM = new double[3 * MAX_TRIANGLES];
    private final double[] pieceNormal = new double[3 * MAX_TRIANGLES];
    private final double[] pieceShaded = new double[3 * MAX_TRIANGLES];
    private final Vector3d position = new Vector3d();
    private final Quaterniond orientation = new Quaterniond();
    private final Vector3d local = new Vector3d();
    private final Vector3d point = new Vector3d();
    private final Vector3d normal = new Vector3d();
    private final Vector3d scratch = new Vector3d();
    private final Vector3d shaded = new Vector3d();

    /**
     * @param obstacles the bodies the sphere meets, each static or kinematic; a mesh's hierarchy is built here
     * @param capacity  the most half-spaces one query keeps
     * @throws IllegalArgumentException if a body is dynamic, out of range, or {@code capacity < 1}
     */
    public SphereClearance(PhysicsWorld world, int[] obstacles, int capacity) {
        this(world, obstacles, capacity, Double.NaN);
    }

    /**
     * With force shading: each piece of a mesh also carries a shaded normal ({@link #shadedNormal}), interpolated
     * over its triangle from corner normals that average the faces around the corner within {@code creaseAngleRad}
     * of the triangle's own, weighted by area (Morgenbesser and Srinivasan, "Force shading for haptic shape
     * perception", 1996; the crease keeps a box's edges sharp). NaN: no shading, the shaded normal is the piece's.
     *
     * @param creaseAngleRad 0 < angle < π, or NaN
     */
    public SphereClearance(PhysicsWorld world, int[] obstacles, int capacity, double creaseAngleRad) {
        if (!Double.isNaN(creaseAngleRad) && !(creaseAngleRad > 0.0 && creaseAngleRad < Math.PI)) {
            throw new IllegalArgumentException("crease angle must be in (0, π) rad, got " + creaseAngleRad);
        }
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.world = world;
        this.obstacles = obstacles.clone();
        this.hierarchies = new TriangleBvh[obstacles.length];
        this.cornerNormals = new double[obstacles.length][];
        for (int i = 0; i < obstacles.length; i++) {
            int body = obstacles[i];
            if (body < 0 || body >= world.bodyCount() || world.bodyType(body) == BodyType.DYNAMIC) {
                throw new IllegalArgumentException("obstacle " + body + " is not a static or kinematic body of "
                    + "the world");
            }
            if (world.shape(body) instanceof TriangleMeshShape mesh) {
                hierarchies[i] = new TriangleBvh(mesh.mesh());
                if (!Double.isNaN(creaseAngleRad)) {
                    cornerNormals[i] = cornerNormals(mesh.mesh(), Math.cos(creaseAngleRad));
                }
            }
        }
        normals = new double[3 * capacity];
        shadedNormals = new double[3 * capacity];
        offsetsM = new double[capacity];
        gapsM = new double[capacity];
        bodies = new int[capacity];
    }

    /**
     * Finds the half-spaces of every piece within {@code reachM} of the sphere's surface (gap ≤ reach; every piece
     * the centre is inside of, whatever the reach).
     *
     * @return how many, also {@link #count()}
     */
    public int query(Vector3dc centreM, double radiusM, double reachM) {
        count = 0;
        coveredReachM = reachM;
        for (int i = 0; i < obstacles.length; i++) {
            int body = obstacles[i];
            Shape shape = world.shape(body);
            world.bodyPosition(body, position);
            world.bodyOrientation(body, orientation);
            if (shape instanceof TriangleMeshShape mesh) {
                meshPieces(mesh.mesh(), hierarchies[i], cornerNormals[i], body, centreM, radiusM, reachM);
                continue;
            }
            double depthM;
            if (shape instanceof PlaneShape plane) {
                depthM = SphereContacts.sphereVsPlane(centreM, radiusM, position, orientation, plane.normal(), point,
                    normal);
            } else if (shape instanceof SphereShape sphere) {
                depthM = SphereContacts.sphereVsSphere(centreM, radiusM, position, sphere.radiusM(), point, normal);
            } else if (shape instanceof BoxShape box) {
                depthM = SphereContacts.sphereVsBox(centreM, radiusM, position, orientation, box.halfXM(),
                    box.halfYM(), box.halfZM(), point, normal);
            } else if (shape instanceof CapsuleShape capsule) {
                depthM = capsule(capsule, centreM, radiusM);
            } else if (shape instanceof ConvexHullShape hull) {
                depthM = hull(hull.hull(), centreM, radiusM);
            } else {
                continue;
            }
            shaded.set(normal);
            keep(body, -depthM, radiusM, reachM);
        }
        return count;
    }

    /** The axis segment's closest point, then the sphere test against a sphere of the capsule's radius there. */
    private double capsule(CapsuleShape capsule, Vector3dc centreM, double radiusM) {
        orientation.transformInverse(scratch.set(centreM).sub(position), local);
        double h = capsule.halfLengthM();
        double t = Math.max(-h, Math.min(h, local.z));
        double dx = local.x;
        double dy = local.y;
        double dz = local.z - t;
        double distanceM = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (distanceM > 0.0) {
            normal.set(dx / distanceM, dy / distanceM, dz / distanceM);
        } else {
            // On the axis: any direction across it leaves the capsule equally fast; +x of the body, deterministically.
            normal.set(1.0, 0.0, 0.0);
        }
        point.set(normal).mul(capsule.radiusM()).add(0.0, 0.0, t);
        orientation.transform(normal);
        orientation.transform(point).add(position);
        return radiusM + capsule.radiusM() - distanceM;
    }

    /**
     * Outside: the nearest point over the faces that face the centre (each face a fan of triangles). Inside: the face
     * of least penetration, as for a box.
     */
    private double hull(ConvexHull hull, Vector3dc centreM, double radiusM) {
        orientation.transformInverse(scratch.set(centreM).sub(position), local);
        double bestSeparationM = Double.NEGATIVE_INFINITY;
        int bestFace = 0;
        for (int f = 0; f < hull.faceCount(); f++) {
            hull.faceNormal(f, normal);
            double separationM = normal.dot(local) - hull.faceOffsetM(f);
            if (separationM > bestSeparationM) {
                bestSeparationM = separationM;
                bestFace = f;
            }
        }
        if (bestSeparationM <= 0.0) {
            hull.faceNormal(bestFace, normal);
            point.set(normal).mul(-bestSeparationM).add(local);
            orientation.transform(normal);
            orientation.transform(point).add(position);
            return radiusM - bestSeparationM;
        }
        double bestSquaredM2 = Double.POSITIVE_INFINITY;
        double qx = 0.0;
        double qy = 0.0;
        double qz = 0.0;
        for (int f = 0; f < hull.faceCount(); f++) {
            hull.faceNormal(f, normal);
            if (normal.dot(local) - hull.faceOffsetM(f) <= 0.0) {
                continue;
            }
            int a = hull.faceVertex(f, 0);
            for (int k = 1; k + 1 < hull.faceVertexCount(f); k++) {
                int b = hull.faceVertex(f, k);
                int c = hull.faceVertex(f, k + 1);
                ClosestPoints.pointTriangle(local.x, local.y, local.z,
                    hull.vertexX(a), hull.vertexY(a), hull.vertexZ(a), hull.vertexX(b), hull.vertexY(b),
                    hull.vertexZ(b), hull.vertexX(c), hull.vertexY(c), hull.vertexZ(c), point);
                double squaredM2 = point.distanceSquared(local);
                if (squaredM2 < bestSquaredM2) {
                    bestSquaredM2 = squaredM2;
                    qx = point.x;
                    qy = point.y;
                    qz = point.z;
                }
            }
        }
        double distanceM = Math.sqrt(bestSquaredM2);
        normal.set(local.x - qx, local.y - qy, local.z - qz).div(distanceM);
        point.set(qx, qy, qz);
        orientation.transform(normal);
        orientation.transform(point).add(position);
        return radiusM - distanceM;
    }

    private void meshPieces(TriangleMesh mesh, TriangleBvh bvh, double[] corners, int body, Vector3dc centreM,
                            double radiusM, double reachM) {
        orientation.transformInverse(scratch.set(centreM).sub(position), local);
        double lx = local.x;
        double ly = local.y;
        double lz = local.z;
        double extentM = radiusM + reachM;
        int n = bvh.query(lx - extentM, ly - extentM, lz - extentM, lx + extentM, ly + extentM, lz + extentM,
            triangles);
        while (n > triangles.length && reachM > 0.0) {
            reachM = reachM > 1e-6 * radiusM ? 0.5 * reachM : 0.0;
            extentM = radiusM + reachM;
            n = bvh.query(lx - extentM, ly - extentM, lz - extentM, lx + extentM, ly + extentM, lz + extentM,
                triangles);
        }
        coveredReachM = Math.min(coveredReachM, reachM);
        n = Math.min(n, triangles.length);
        int pieces = 0;
        for (int k = 0; k < n; k++) {
            int t = triangles[k];
            int a = mesh.corner(t, 0);
            int b = mesh.corner(t, 1);
            int c = mesh.corner(t, 2);
            double ax = mesh.vertexX(a);
            double ay = mesh.vertexY(a);
            double az = mesh.vertexZ(a);
            double abx = mesh.vertexX(b) - ax;
            double aby = mesh.vertexY(b) - ay;
            double abz = mesh.vertexZ(b) - az;
            double acx = mesh.vertexX(c) - ax;
            double acy = mesh.vertexY(c) - ay;
            double acz = mesh.vertexZ(c) - az;
            double fx = aby * acz - abz * acy;
            double fy = abz * acx - abx * acz;
            double fz = abx * acy - aby * acx;
            double faceLength = Math.sqrt(fx * fx + fy * fy + fz * fz);
            double front = fx * (lx - ax) + fy * (ly - ay) + fz * (lz - az);
            // Behind it, or its plane alone already out of reach (the triangle is no nearer than its plane).
            if (!(faceLength > 0.0) || front < 0.0 || front > (radiusM + reachM) * faceLength) {
                continue;
            }
            ClosestPoints.pointTriangle(lx, ly, lz, ax, ay, az, mesh.vertexX(b), mesh.vertexY(b), mesh.vertexZ(b),
                mesh.vertexX(c), mesh.vertexY(c), mesh.vertexZ(c), point);
            double dx = lx - point.x;
            double dy = ly - point.y;
            double dz = lz - point.z;
            double distanceM = Math.sqrt(dx * dx + dy * dy + dz * dz);
            if (distanceM - radiusM > reachM) {
                continue;
            }
            int p = pieces++;
            pieceTriangle[p] = t;
            pieceGapM[p] = distanceM - radiusM;
            piecePointM[3 * p] = point.x;
            piecePointM[3 * p + 1] = point.y;
            piecePointM[3 * p + 2] = point.z;
            if (corners != null) {
                interpolate(corners, t, ax, ay, az, abx, aby, abz, acx, acy, acz, point, p);
            }
            if (distanceM > 1e-12 * extentM) {
                pieceNormal[3 * p] = dx / distanceM;
                pieceNormal[3 * p + 1] = dy / distanceM;
                pieceNormal[3 * p + 2] = dz / distanceM;
            } else {
                pieceNormal[3 * p] = fx / faceLength;
                pieceNormal[3 * p + 1] = fy / faceLength;
                pieceNormal[3 * p + 2] = fz / faceLength;
            }
        }
        // The nearest NEAREST pieces, nearest first, so that a piece is only ever left out for one that is kept; the
        // covered reach ends at the nearest of the others.
        pieces = selectNearest(pieces);
        for (int i = 1; i < pieces; i++) {
            int p = pieceOrder[i];
            int j = i - 1;
            while (j >= 0 && pieceGapM[pieceOrder[j]] > pieceGapM[p]) {
                pieceOrder[j + 1] = pieceOrder[j];
                j--;
            }
            pieceOrder[j + 1] = p;
        }
        double slackM = 1e-9 * radiusM;
        int kept = 0;
        for (int i = 0; i < pieces; i++) {
            int p = pieceOrder[i];
            if (shadowed(mesh, pieceTriangle[p], kept, slackM)) {
                continue;
            }
            pieceOrder[kept++] = p;
            normal.set(pieceNormal[3 * p], pieceNormal[3 * p + 1], pieceNormal[3 * p + 2]);
            point.set(piecePointM[3 * p], piecePointM[3 * p + 1], piecePointM[3 * p + 2]);
            orientation.transform(normal);
            orientation.transform(point).add(position);
            if (corners != null) {
                orientation.transform(shaded.set(pieceShaded[3 * p], pieceShaded[3 * p + 1], pieceShaded[3 * p + 2]));
            } else {
                shaded.set(normal);
            }
            keep(body, pieceGapM[p], radiusM, reachM);
        }
    }

    /**
     * Puts the {@link #NEAREST} pieces of least gap (all, if there are no more) into the front of
     * {@link #pieceOrder}, through a bounded max-heap (O(m log NEAREST), not a sort of all m), and lowers the covered
     * reach to the gap of the nearest piece left out.
     *
     * @return how many were put there
     */
    private int selectNearest(int pieces) {
        int size = 0;
        for (int p = 0; p < pieces; p++) {
            if (size < NEAREST) {
                int i = size++;
                while (i > 0 && pieceGapM[pieceOrder[(i - 1) / 2]] < pieceGapM[p]) {
                    pieceOrder[i] = pieceOrder[(i - 1) / 2];
                    i = (i - 1) / 2;
                }
                pieceOrder[i] = p;
                continue;
            }
            int out = p;
            if (pieceGapM[p] < pieceGapM[pieceOrder[0]]) {
                out = pieceOrder[0];
                int i = 0;
                while (true) {
                    int child = 2 * i + 1;
                    if (child >= size) {
                        break;
                    }
                    if (child + 1 < size && pieceGapM[pieceOrder[child + 1]] > pieceGapM[pieceOrder[child]]) {
                        child++;
                    }
                    if (pieceGapM[pieceOrder[child]] <= pieceGapM[p]) {
                        break;
                    }
                    pieceOrder[i] = pieceOrder[child];
                    i = child;
                }
                pieceOrder[i] = p;
            }
            coveredReachM = Math.max(0.0, Math.min(coveredReachM, pieceGapM[out]));
        }
        return size;
    }

    /**
     * Whether triangle {@code t} lies wholly behind the plane of a piece already kept from this mesh (the first
     * {@code kept} of {@link #pieceOrder}; to within {@code slackM}): that piece's half-space then keeps the sphere off
     * {@code t} too, and {@code t}'s own plane is not needed. Without this, a sphere sliding over a flat or convex
     * tessellated surface meets each next triangle's plane through a point of its edge, tilted toward it, and halves
     * its way to that edge forever instead of sliding over it.
     */
    private boolean shadowed(TriangleMesh mesh, int t, int kept, double slackM) {
        for (int i = 0; i < kept; i++) {
            int q = pieceOrder[i];
            double nx = pieceNormal[3 * q];
            double ny = pieceNormal[3 * q + 1];
            double nz = pieceNormal[3 * q + 2];
            double offsetM = nx * piecePointM[3 * q] + ny * piecePointM[3 * q + 1] + nz * piecePointM[3 * q + 2];
            boolean behind = true;
            for (int k = 0; k < 3 && behind; k++) {
                int v = mesh.corner(t, k);
                behind = nx * mesh.vertexX(v) + ny * mesh.vertexY(v) + nz * mesh.vertexZ(v) <= offsetM + slackM;
            }
            if (behind) {
                return true;
            }
        }
        return false;
    }

    /**
     * The shaded normal at {@code q} (the closest point, in the triangle) into {@link #pieceShaded} slot {@code p}:
     * the corner normals weighted by q's barycentric coordinates, normalised.
     */
    private void interpolate(double[] corners, int t, double ax, double ay, double az, double abx, double aby,
                             double abz, double acx, double acy, double acz, Vector3dc q, int p) {
        double aqx = q.x() - ax;
        double aqy = q.y() - ay;
        double aqz = q.z() - az;
        double d00 = abx * abx + aby * aby + abz * abz;
        double d01 = abx * acx + aby * acy + abz * acz;
        double d11 = acx * acx + acy * acy + acz * acz;
        double d20 = aqx * abx + aqy * aby + aqz * abz;
        double d21 = aqx * acx + aqy * acy + aqz * acz;
        double denominator = d00 * d11 - d01 * d01;
        double v = denominator > 0.0 ? Math.max(0.0, Math.min(1.0, (d11 * d20 - d01 * d21) / denominator)) : 0.0;
        double w = denominator > 0.0 ? Math.max(0.0, Math.min(1.0 - v, (d00 * d21 - d01 * d20) / denominator)) : 0.0;
        double u = 1.0 - v - w;
        int c = 9 * t;
        double nx = u * corners[c] + v * corners[c + 3] + w * corners[c + 6];
        double ny = u * corners[c + 1] + v * corners[c + 4] + w * corners[c + 7];
        double nz = u * corners[c + 2] + v * corners[c + 5] + w * corners[c + 8];
        double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        pieceShaded[3 * p] = nx / length;
        pieceShaded[3 * p + 1] = ny / length;
        pieceShaded[3 * p + 2] = nz / length;
    }

    /**
     * Each triangle's corner normals: at each corner, the sum of the area-weighted normals (the cross products) of
     * the triangles at that vertex whose unit normals are within the crease of this triangle's, normalised. Corners
     * are matched by vertex index (a mesh loaded from OBJ shares them; STL corners are welded, docs/scenes.md).
     */
    private static double[] cornerNormals(TriangleMesh mesh, double cosCrease) {
        int triangles = mesh.triangleCount();
        double[] face = new double[3 * triangles];
        double[] unit = new double[3 * triangles];
        int[] degree = new int[mesh.vertexCount() + 1];
        for (int t = 0; t < triangles; t++) {
            int a = mesh.corner(t, 0);
            int b = mesh.corner(t, 1);
            int c = mesh.corner(t, 2);
            double abx = mesh.vertexX(b) - mesh.vertexX(a);
            double aby = mesh.vertexY(b) - mesh.vertexY(a);
            double abz = mesh.vertexZ(b) - mesh.vertexZ(a);
            double acx = mesh.vertexX(c) - mesh.vertexX(a);
            double acy = mesh.vertexY(c) - mesh.vertexY(a);
            double acz = mesh.vertexZ(c) - mesh.vertexZ(a);
            face[3 * t] = aby * acz - abz * acy;
            face[3 * t + 1] = abz * acx - abx * acz;
            face[3 * t + 2] = abx * acy - aby * acx;
            double length = Math.sqrt(face[3 * t] * face[3 * t] + face[3 * t + 1] * face[3 * t + 1]
                + face[3 * t + 2] * face[3 * t + 2]);
            for (int k = 0; k < 3; k++) {
                unit[3 * t + k] = length > 0.0 ? face[3 * t + k] / length : 0.0;
                degree[mesh.corner(t, k) + 1]++;
            }
        }
        for (int v = 0; v < mesh.vertexCount(); v++) {
            degree[v + 1] += degree[v];
        }
        int[] incident = new int[degree[mesh.vertexCount()]];
        int[] fill = degree.clone();
        for (int t = 0; t < triangles; t++) {
            for (int k = 0; k < 3; k++) {
                incident[fill[mesh.corner(t, k)]++] = t;
            }
        }
        double[] corners = new double[9 * triangles];
        for (int t = 0; t < triangles; t++) {
            for (int k = 0; k < 3; k++) {
                int v = mesh.corner(t, k);
                double nx = 0.0;
                double ny = 0.0;
                double nz = 0.0;
                for (int j = degree[v]; j < degree[v + 1]; j++) {
                    int u = incident[j];
                    double cos = unit[3 * u] * unit[3 * t] + unit[3 * u + 1] * unit[3 * t + 1]
                        + unit[3 * u + 2] * unit[3 * t + 2];
                    if (u == t || cos >= cosCrease) {
                        nx += face[3 * u];
                        ny += face[3 * u + 1];
                        nz += face[3 * u + 2];
                    }
                }
                double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
                corners[9 * t + 3 * k] = length > 0.0 ? nx / length : unit[3 * t];
                corners[9 * t + 3 * k + 1] = length > 0.0 ? ny / length : unit[3 * t + 1];
                corners[9 * t + 3 * k + 2] = length > 0.0 ? nz / length : unit[3 * t + 2];
            }
        }
        return corners;
    }

    /** Keeps the half-space in {@link #point}, {@link #normal} when its gap is within reach. */
    private void keep(int body, double gapM, double radiusM, double reachM) {
        if (gapM > reachM) {
            return;
        }
        int slot = count;
        if (count == bodies.length) {
            dropped++;
            slot = 0;
            for (int i = 1; i < count; i++) {
                if (gapsM[i] > gapsM[slot]) {
                    slot = i;
                }
            }
            coveredReachM = Math.max(0.0, Math.min(coveredReachM, Math.max(gapM, gapsM[slot])));
            if (gapsM[slot] <= gapM) {
                return;
            }
        } else {
            count++;
        }
        normals[3 * slot] = normal.x;
        normals[3 * slot + 1] = normal.y;
        normals[3 * slot + 2] = normal.z;
        offsetsM[slot] = normal.dot(point) + radiusM;
        shadedNormals[3 * slot] = shaded.x;
        shadedNormals[3 * slot + 1] = shaded.y;
        shadedNormals[3 * slot + 2] = shaded.z;
        gapsM[slot] = gapM;
        bodies[slot] = body;
    }

    /**
     * How far the sphere may move after the last query and meet only pieces it kept: the reach asked, less where a
     * full query left a piece out or a mesh was asked with less reach; never negative.
     */
    public double coveredReachM() {
        return coveredReachM;
    }

    /** Half-spaces found by the last query. */
    public int count() {
        return count;
    }

    /** The most half-spaces a query keeps. */
    public int capacity() {
        return bodies.length;
    }

    /**
     * The shaded normal of piece {@code i} at its closest point (force shading on a mesh); the piece's own normal
     * everywhere else.
     */
    public Vector3d shadedNormal(int i, Vector3d dest) {
        return dest.set(shadedNormals[3 * i], shadedNormals[3 * i + 1], shadedNormals[3 * i + 2]);
    }

    /** Unit normal of half-space {@code i}, pointing away from its piece. */
    public Vector3d normal(int i, Vector3d dest) {
        return dest.set(normals[3 * i], normals[3 * i + 1], normals[3 * i + 2]);
    }

    public double normalX(int i) {
        return normals[3 * i];
    }

    public double normalY(int i) {
        return normals[3 * i + 1];
    }

    public double normalZ(int i) {
        return normals[3 * i + 2];
    }

    /** {@code n·q + r}: a centre {@code x} is clear of piece {@code i} while {@code n·x ≥} this. */
    public double offsetM(int i) {
        return offsetsM[i];
    }

    /** The sphere's gap to piece {@code i} at the query's centre; negative inside by that much. */
    public double gapM(int i) {
        return gapsM[i];
    }

    /** The body piece {@code i} belongs to. */
    public int body(int i) {
        return bodies[i];
    }

    /** Pieces within reach that a full query could not keep, since construction. */
    public long dropped() {
        return dropped;
    }
}
