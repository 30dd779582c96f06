package org.hapticsd.physics.collision;

import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.geometry.Transform;
import org.joml.Vector3d;

/**
 * A convex polytope posed in the world: vertices, face planes and edges in world coordinates, which is what the
 * separating-axis test, face clipping and the capsule routines read. A box, a hull and a single triangle all fill
 * the same view, so one SAT and one clipper serve every polyhedral pair. Scratch owned by a {@link Narrowphase}:
 * refilled for each test, never allocated per test.
 *
 * <p>Edges carry their arc on the Gauss map (the normals of the two faces they join), so edge pairs that cannot
 * form a face of the Minkowski difference are skipped (Gregorius, "The Separating Axis Test between Convex
 * Polyhedra", GDC 2013). A triangle is flat: its edges' arcs run from the face normal to the back normal through
 * the edge's outward in-plane normal, a half circle, stored as two quarter arcs so that every arc is shorter than
 * a half circle, which the arc-crossing test needs.
 */
final class Polytope {
    private static final int[] TRIANGLE_FACE_START = {0, 3};
    private static final int[] TRIANGLE_FACE_VERTEX = {0, 1, 2};
    /** Each triangle edge twice, once per quarter arc. */
    private static final int[] TRIANGLE_EDGE_VERTEX = {0, 1, 0, 1, 1, 2, 1, 2, 2, 0, 2, 0};

    /**
     * Twice the area below which a triangle is degenerate: (1e-9 m)², a sliver a nanometre wide on a metre edge,
     * whose normal would be noise.
     */
    private static final double DEGENERATE_DOUBLE_AREA_M2 = 1e-18;

    int vertexCount;
    double[] vertexM;
    int faceCount;
    int[] faceStart;
    int[] faceVertex;
    /** Outward unit normal and offset of each face, n·x = d, world: 4 per face. */
    double[] facePlane;
    int edgeCount;
    int[] edgeVertex;
    /** Edge vector from its first to its second vertex, world, not normalised: 3 per edge. */
    double[] edgeDirection;
    /** Ends of each edge's Gauss-map arc: two unit normals, world: 6 per edge. */
    double[] edgeArc;
    int maxFaceVertexCount;
    /** Mean of the vertices: a point strictly inside a solid polytope, on the face of a triangle. */
    double centroidX;
    double centroidY;
    double centroidZ;
    /** True for a triangle (one face, no volume). */
    boolean flat;

    private final Vector3d scratch = new Vector3d();
    private final Vector3d local = new Vector3d();

    Polytope(int vertexCapacity, int faceCapacity, int edgeCapacity) {
        vertexM = new double[3 * vertexCapacity];
        facePlane = new double[4 * faceCapacity];
        edgeDirection = new double[3 * edgeCapacity];
        edgeArc = new double[6 * edgeCapacity];
    }

    /** Grows the buffers to hold {@code hull}; a scene-change operation, allocation only when it grows. */
    void ensureCapacity(HullFeatures hull) {
        if (vertexM.length < 3 * hull.vertexCount) {
            vertexM = new double[3 * hull.vertexCount];
        }
        if (facePlane.length < 4 * hull.faceCount) {
            facePlane = new double[4 * hull.faceCount];
        }
        if (edgeDirection.length < 3 * hull.edgeCount) {
            edgeDirection = new double[3 * hull.edgeCount];
            edgeArc = new double[6 * hull.edgeCount];
        }
    }

    /** The box as the unit box of {@link HullFeatures#UNIT_BOX} scaled by its half extents. */
    void setBox(BoxShape box, Transform pose) {
        fill(HullFeatures.UNIT_BOX, box.halfXM(), box.halfYM(), box.halfZM(), true, pose);
    }

    void setHull(HullFeatures hull, Transform pose) {
        fill(hull, 1.0, 1.0, 1.0, false, pose);
    }

    /**
     * A scaled copy of {@code hull}. Scaling keeps a face normal only when it lies along a body axis, which holds
     * for the unit box, the only scaled use; a box's face offset is then {@code n·v} of any face vertex, which for
     * an axis normal is exactly the half extent, the same value {@link org.hapticsd.physics.geometry.ConvexHull}'s
     * vertex average gives, so a box and the hull of the same box fill bit-identical views.
     */
    private void fill(HullFeatures hull, double sx, double sy, double sz, boolean scaled, Transform pose) {
        flat = false;
        vertexCount = hull.vertexCount;
        faceCount = hull.faceCount;
        faceStart = hull.faceStart;
        faceVertex = hull.faceVertex;
        edgeCount = hull.edgeCount;
        edgeVertex = hull.edgeVertex;
        maxFaceVertexCount = hull.maxFaceVertexCount;
        double[] v = hull.vertexM;
        double sumX = 0.0;
        double sumY = 0.0;
        double sumZ = 0.0;
        for (int i = 0; i < vertexCount; i++) {
            pose.toWorld(v[3 * i] * sx, v[3 * i + 1] * sy, v[3 * i + 2] * sz, scratch);
            vertexM[3 * i] = scratch.x;
            vertexM[3 * i + 1] = scratch.y;
            vertexM[3 * i + 2] = scratch.z;
            sumX += scratch.x;
            sumY += scratch.y;
            sumZ += scratch.z;
        }
        if (scaled) {
            // A box's vertex mean is its position; taking it exactly keeps the triangle front-side test exact for
            // a box centred on the plane, where the rounded sum of its vertices can land on either side.
            centroidX = pose.position().x();
            centroidY = pose.position().y();
            centroidZ = pose.position().z();
        } else {
            centroidX = sumX / vertexCount;
            centroidY = sumY / vertexCount;
            centroidZ = sumZ / vertexCount;
        }
        Vector3d normal = scratch;
        double px = pose.position().x();
        double py = pose.position().y();
        double pz = pose.position().z();
        double[] plane = hull.facePlane;
        for (int f = 0; f < faceCount; f++) {
            double nx = plane[4 * f];
            double ny = plane[4 * f + 1];
            double nz = plane[4 * f + 2];
            double offsetLocalM;
            if (scaled) {
                int first = hull.faceVertex[hull.faceStart[f]];
                offsetLocalM = nx * v[3 * first] * sx + ny * v[3 * first + 1] * sy + nz * v[3 * first + 2] * sz;
            } else {
                offsetLocalM = plane[4 * f + 3];
            }
            // n_world · x_world = n·(R·x + p) = d_local + n_world·p for every point x of the face.
            pose.rotate(local.set(nx, ny, nz), normal);
            facePlane[4 * f] = normal.x;
            facePlane[4 * f + 1] = normal.y;
            facePlane[4 * f + 2] = normal.z;
            facePlane[4 * f + 3] = offsetLocalM + (normal.x * px + normal.y * py + normal.z * pz);
        }
        for (int e = 0; e < edgeCount; e++) {
            int a = edgeVertex[2 * e];
            int b = edgeVertex[2 * e + 1];
            edgeDirection[3 * e] = vertexM[3 * b] - vertexM[3 * a];
            edgeDirection[3 * e + 1] = vertexM[3 * b + 1] - vertexM[3 * a + 1];
            edgeDirection[3 * e + 2] = vertexM[3 * b + 2] - vertexM[3 * a + 2];
            int f1 = hull.edgeFace[2 * e];
            int f2 = hull.edgeFace[2 * e + 1];
            edgeArc[6 * e] = facePlane[4 * f1];
            edgeArc[6 * e + 1] = facePlane[4 * f1 + 1];
            edgeArc[6 * e + 2] = facePlane[4 * f1 + 2];
            edgeArc[6 * e + 3] = facePlane[4 * f2];
            edgeArc[6 * e + 4] = facePlane[4 * f2 + 1];
            edgeArc[6 * e + 5] = facePlane[4 * f2 + 2];
        }
    }

    /**
     * Triangle abc (world), front face counter-clockwise: normal {@code (b − a) × (c − a)} normalised.
     *
     * @return {@code false} for a degenerate triangle, which has no normal and gets no contact
     */
    boolean setTriangle(double ax, double ay, double az, double bx, double by, double bz,
                        double cx, double cy, double cz) {
        double abx = bx - ax;
        double aby = by - ay;
        double abz = bz - az;
        double acx = cx - ax;
        double acy = cy - ay;
        double acz = cz - az;
        double nx = aby * acz - abz * acy;
        double ny = abz * acx - abx * acz;
        double nz = abx * acy - aby * acx;
        double doubleAreaM2 = Math.sqrt(nx * nx + ny * ny + nz * nz);
        if (!(doubleAreaM2 > DEGENERATE_DOUBLE_AREA_M2)) {
            return false;
        }
        nx /= doubleAreaM2;
        ny /= doubleAreaM2;
        nz /= doubleAreaM2;
        flat = true;
        vertexCount = 3;
        faceCount = 1;
        faceStart = TRIANGLE_FACE_START;
        faceVertex = TRIANGLE_FACE_VERTEX;
        edgeCount = 6;
        edgeVertex = TRIANGLE_EDGE_VERTEX;
        maxFaceVertexCount = 3;
        vertexM[0] = ax;
        vertexM[1] = ay;
        vertexM[2] = az;
        vertexM[3] = bx;
        vertexM[4] = by;
        vertexM[5] = bz;
        vertexM[6] = cx;
        vertexM[7] = cy;
        vertexM[8] = cz;
        centroidX = (ax + bx + cx) / 3.0;
        centroidY = (ay + by + cy) / 3.0;
        centroidZ = (az + bz + cz) / 3.0;
        facePlane[0] = nx;
        facePlane[1] = ny;
        facePlane[2] = nz;
        facePlane[3] = nx * ax + ny * ay + nz * az;
        for (int k = 0; k < 3; k++) {
            int from = 3 * k;
            int to = 3 * ((k + 1) % 3);
            double ex = vertexM[to] - vertexM[from];
            double ey = vertexM[to + 1] - vertexM[from + 1];
            double ez = vertexM[to + 2] - vertexM[from + 2];
            // Outward in-plane normal of edge k: e × n points away from the triangle for counter-clockwise winding.
            double mx = ey * nz - ez * ny;
            double my = ez * nx - ex * nz;
            double mz = ex * ny - ey * nx;
            double length = Math.sqrt(mx * mx + my * my + mz * mz);
            mx /= length;
            my /= length;
            mz /= length;
            // Quarter arc n → m, then m → −n.
            setEdge(2 * k, ex, ey, ez, nx, ny, nz, mx, my, mz);
            setEdge(2 * k + 1, ex, ey, ez, mx, my, mz, -nx, -ny, -nz);
        }
        return true;
    }

    private void setEdge(int e, double ex, double ey, double ez, double n1x, double n1y, double n1z,
                         double n2x, double n2y, double n2z) {
        edgeDirection[3 * e] = ex;
        edgeDirection[3 * e + 1] = ey;
        edgeDirection[3 * e + 2] = ez;
        edgeArc[6 * e] = n1x;
        edgeArc[6 * e + 1] = n1y;
        edgeArc[6 * e + 2] = n1z;
        edgeArc[6 * e + 3] = n2x;
        edgeArc[6 * e + 4] = n2y;
        edgeArc[6 * e + 5] = n2z;
    }

    /** Index into {@link #vertexM} (times 3 implied) of corner {@code k} of {@code face}. */
    int faceCorner(int face, int k) {
        return faceVertex[faceStart[face] + k];
    }

    int faceSize(int face) {
        return faceStart[face + 1] - faceStart[face];
    }
}
