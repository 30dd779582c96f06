package org.hapticsd.physics.geometry;

import java.util.Arrays;

/**
 * Builds a {@link ConvexHull} from a point cloud: quickhull in three dimensions (Barber, Dobkin &amp; Huhdanpaa,
 * "The Quickhull Algorithm for Convex Hulls", ACM TOMS 22(4), 1996), with the horizon found by a depth-first walk
 * that emits the horizon edges already in counter-clockwise order (J. Lloyd's quickhull3d; D. Gregorius,
 * "Implementing Quickhull", GDC 2014), followed by {@link HullFaces}, which merges coplanar triangles into polygons.
 *
 * <p>Which faces the new point sees is decided exactly ({@link Orientation}), not against the tolerance. A tolerance
 * there (visible if more than the tolerance above) is the textbook choice, but on nearly coplanar clouds it lets the
 * hull turn slightly concave, after which the set of faces above the tolerance need not be connected, and stray
 * visible faces survive or fold over: the stress runs that motivated this showed faces flipped inside out. With
 * exact visibility every intermediate hull is exactly convex, the visible region is a disc and its horizon one loop.
 * The tolerance decides only which points are worth adding (more than the tolerance outside a face) and which
 * triangles merge into one face at the end.
 *
 * <p>Construction keeps triangles only and merges once, on the finished hull, rather than merging during
 * construction as Lloyd and Gregorius do: exact visibility already keeps the intermediate hulls valid, and triangles
 * keep the adjacency to three fixed slots per face. The price is that thin triangles occur; their planes are
 * computed exactly when thin (addFace) so that "more than the tolerance outside" stays consistent with the exact
 * visibility test.
 *
 * <p>One builder per call; it allocates freely (scene set-up, not the step).
 */
final class QuickHull {

    private static final int NONE = -1;
    private static final double SLIVER_SINE = 1e-6;

    private final double[] p;
    private final double toleranceM;

    // Triangles: corners, the neighbour across each edge k (from corner k to corner k+1) and which edge of the
    // neighbour that is, the outward plane (nx, ny, nz, d with n·x = d), and whether the face was deleted.
    private int faceCount;
    private int[] corners = new int[3 * 64];
    private int[] neighbour = new int[3 * 64];
    private int[] neighbourEdge = new int[3 * 64];
    private double[] plane = new double[4 * 64];
    private boolean[] deleted = new boolean[64];
    // Outside sets as singly linked lists through the points: head per face, next per point.
    private int[] outsideHead = new int[64];
    private final int[] outsideNext;

    // Scratch for one step of the construction.
    private int[] stackFace = new int[64];
    private int[] stackEdge = new int[64];
    private int[] stackLeft = new int[64];
    private int[] horizonFace = new int[64];
    private int[] horizonEdge = new int[64];
    private int[] visible = new int[64];

    private QuickHull(double[] pointsM, double toleranceM) {
        this.p = pointsM;
        this.toleranceM = toleranceM;
        this.outsideNext = new int[pointsM.length / 3];
    }

    /** See {@link ConvexHull#of(double[])}. */
    static ConvexHull build(double[] pointsM) {
        validate(pointsM);
        QuickHull builder = new QuickHull(pointsM.clone(), ConvexHull.toleranceM(pointsM));
        builder.construct();
        return new HullFaces(builder.p, builder.toleranceM, builder.faceCount, builder.corners, builder.neighbour,
            builder.plane, builder.deleted).toConvexHull();
    }

    private static void validate(double[] pointsM) {
        if (pointsM == null) {
            throw new IllegalArgumentException("points must not be null");
        }
        if (pointsM.length % 3 != 0) {
            throw new IllegalArgumentException("points must be x, y, z triples, got " + pointsM.length
                + " numbers, which is not a multiple of 3");
        }
        if (pointsM.length < 12) {
            throw new IllegalArgumentException("a convex hull needs at least 4 points, got " + pointsM.length / 3);
        }
        for (int i = 0; i < pointsM.length; i++) {
            if (!Double.isFinite(pointsM[i])) {
                throw new IllegalArgumentException("point " + i / 3 + " has a non-finite coordinate "
                    + "xyz".charAt(i % 3) + " = " + pointsM[i]);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Construction

    private void construct() {
        int[] simplex = initialSimplex();
        int a = simplex[0];
        int b = simplex[1];
        int c = simplex[2];
        int d = simplex[3];
        // Wind the base so that its normal (b − a) × (c − a) points away from d; each side face then reverses one
        // base edge and ends at d, so that every edge is used once in each direction.
        if (Orientation.sideOfTriangle(p, a, b, c, d) > 0) {
            int swap = b;
            b = c;
            c = swap;
        }
        int f0 = addFace(a, b, c);
        int f1 = addFace(b, a, d);
        int f2 = addFace(c, b, d);
        int f3 = addFace(a, c, d);
        link(f0, 0, f1, 0);
        link(f0, 1, f2, 0);
        link(f0, 2, f3, 0);
        link(f1, 1, f3, 2);
        link(f1, 2, f2, 1);
        link(f2, 2, f3, 1);
        for (int i = 0, n = p.length / 3; i < n; i++) {
            if (i != a && i != b && i != c && i != d) {
                assignToFarthestFace(i, 0, 4);
            }
        }
        int scan = 0;
        while (scan < faceCount) {
            if (deleted[scan] || outsideHead[scan] == NONE) {
                scan++;
            } else {
                int eye = farthestOutsidePoint(scan);
                if (Orientation.sideOfTriangle(p, corners[3 * scan], corners[3 * scan + 1], corners[3 * scan + 2], eye)
                        > 0) {
                    addPoint(scan, eye);
                } else {
                    // More than the tolerance above the computed plane yet not above the exact one: impossible while
                    // planes are accurate to far below the tolerance, which addFace ensures; if rounding ever
                    // disagrees, dropping the point (within rounding of the hull) beats starting from a face that
                    // the point does not see.
                    removeOutside(scan, eye);
                }
            }
        }
    }

    /**
     * The extreme points along the axes give the longest of three candidate segments; the third point is the
     * farthest from its line and the fourth the farthest from their plane. Each distance below the tolerance is
     * a degenerate cloud and is reported as such.
     */
    private int[] initialSimplex() {
        int n = p.length / 3;
        int[] min = new int[3];
        int[] max = new int[3];
        for (int i = 1; i < n; i++) {
            for (int axis = 0; axis < 3; axis++) {
                if (p[3 * i + axis] < p[3 * min[axis] + axis]) {
                    min[axis] = i;
                }
                if (p[3 * i + axis] > p[3 * max[axis] + axis]) {
                    max[axis] = i;
                }
            }
        }
        int a = 0;
        int b = 0;
        double best = -1.0;
        for (int axis = 0; axis < 3; axis++) {
            double d2 = distanceSquared(min[axis], max[axis]);
            if (d2 > best) {
                best = d2;
                a = min[axis];
                b = max[axis];
            }
        }
        if (Math.sqrt(best) <= toleranceM) {
            throw new IllegalArgumentException("all " + n + " points coincide within the hull tolerance "
                + toleranceM + " m");
        }
        int c = NONE;
        best = toleranceM;
        for (int i = 0; i < n; i++) {
            double distance = distanceToLine(a, b, i);
            if (distance > best) {
                best = distance;
                c = i;
            }
        }
        if (c == NONE) {
            throw new IllegalArgumentException("all " + n + " points are collinear within the hull tolerance "
                + toleranceM + " m");
        }
        int d = NONE;
        best = toleranceM;
        for (int i = 0; i < n; i++) {
            double distance = Math.abs(signedDistanceToTriangle(a, b, c, i));
            if (distance > best) {
                best = distance;
                d = i;
            }
        }
        if (d == NONE) {
            throw new IllegalArgumentException("all " + n + " points are coplanar within the hull tolerance "
                + toleranceM + " m: a convex hull needs volume");
        }
        return new int[] {a, b, c, d};
    }

    /**
     * Adds {@code eye}, which lies more than the tolerance outside {@code seed}: deletes every face it sees,
     * fans new faces from it to the horizon and hands the orphaned outside points to the new faces.
     */
    private void addPoint(int seed, int eye) {
        int visibleCount = 0;
        int horizonCount = 0;
        // Depth-first walk over the faces that see the eye. Entering a face across edge e, its other two edges
        // are visited in counter-clockwise order from e + 1, so the horizon edges come out as one
        // counter-clockwise loop around the visible region (Lloyd's calculateHorizon, made iterative).
        int depth = 0;
        ensureStack(1);
        stackFace[0] = seed;
        stackEdge[0] = 0;
        stackLeft[0] = 3;
        deleted[seed] = true;
        visible[visibleCount++] = seed;
        while (depth >= 0) {
            int f = stackFace[depth];
            if (stackLeft[depth] == 0) {
                depth--;
                continue;
            }
            int e = stackEdge[depth];
            stackEdge[depth] = (e + 1) % 3;
            stackLeft[depth]--;
            int g = neighbour[3 * f + e];
            if (deleted[g]) {
                continue;
            }
            if (Orientation.sideOfTriangle(p, corners[3 * g], corners[3 * g + 1], corners[3 * g + 2], eye) > 0) {
                deleted[g] = true;
                visible = grow(visible, visibleCount + 1);
                visible[visibleCount++] = g;
                depth++;
                ensureStack(depth + 1);
                stackFace[depth] = g;
                stackEdge[depth] = (neighbourEdge[3 * f + e] + 1) % 3;
                stackLeft[depth] = 2;
            } else {
                horizonFace = grow(horizonFace, horizonCount + 1);
                horizonEdge = grow(horizonEdge, horizonCount + 1);
                horizonFace[horizonCount] = f;
                horizonEdge[horizonCount] = e;
                horizonCount++;
            }
        }
        for (int i = 0; i < horizonCount; i++) {
            int j = (i + 1) % horizonCount;
            if (edgeEnd(horizonFace[i], horizonEdge[i]) != edgeStart(horizonFace[j], horizonEdge[j])) {
                // With exact visibility on an exactly convex hull the visible region is a disc, so this guards an
                // invariant of the implementation; no input is meant to reach it.
                throw new IllegalStateException("convex hull construction lost its horizon at point " + eye);
            }
        }
        int firstNew = faceCount;
        for (int i = 0; i < horizonCount; i++) {
            int f = horizonFace[i];
            int e = horizonEdge[i];
            int created = addFace(edgeStart(f, e), edgeEnd(f, e), eye);
            link(created, 0, neighbour[3 * f + e], neighbourEdge[3 * f + e]);
        }
        for (int i = 0; i < horizonCount; i++) {
            // New face i runs start → end → eye; its edge 1 (end → eye) meets edge 2 (eye → start) of face i + 1,
            // whose start is this face's end.
            link(firstNew + i, 1, firstNew + (i + 1) % horizonCount, 2);
        }
        for (int v = 0; v < visibleCount; v++) {
            int f = visible[v];
            int point = outsideHead[f];
            outsideHead[f] = NONE;
            while (point != NONE) {
                int next = outsideNext[point];
                if (point != eye) {
                    // Quickhull's partition step: a point outside a deleted face that is outside no new face is
                    // inside the grown hull (Barber et al. 1996, §3) and is dropped for good.
                    assignToFarthestFace(point, firstNew, faceCount);
                }
                point = next;
            }
        }
    }

    private void assignToFarthestFace(int point, int fromFace, int toFace) {
        int best = NONE;
        double bestDistance = toleranceM;
        for (int f = fromFace; f < toFace; f++) {
            double distance = signedDistance(f, point);
            if (distance > bestDistance) {
                bestDistance = distance;
                best = f;
            }
        }
        if (best != NONE) {
            outsideNext[point] = outsideHead[best];
            outsideHead[best] = point;
        }
    }

    private void removeOutside(int f, int point) {
        if (outsideHead[f] == point) {
            outsideHead[f] = outsideNext[point];
            return;
        }
        for (int q = outsideHead[f]; q != NONE; q = outsideNext[q]) {
            if (outsideNext[q] == point) {
                outsideNext[q] = outsideNext[point];
                return;
            }
        }
    }

    private int farthestOutsidePoint(int f) {
        int best = outsideHead[f];
        double bestDistance = signedDistance(f, best);
        for (int point = outsideNext[best]; point != NONE; point = outsideNext[point]) {
            double distance = signedDistance(f, point);
            // Ties go to the lower index so that the hull does not depend on the order of the outside list.
            if (distance > bestDistance || (distance == bestDistance && point < best)) {
                bestDistance = distance;
                best = point;
            }
        }
        return best;
    }

    private int addFace(int a, int b, int c) {
        int f = faceCount;
        if (f == deleted.length) {
            int capacity = 2 * f;
            corners = Arrays.copyOf(corners, 3 * capacity);
            neighbour = Arrays.copyOf(neighbour, 3 * capacity);
            neighbourEdge = Arrays.copyOf(neighbourEdge, 3 * capacity);
            plane = Arrays.copyOf(plane, 4 * capacity);
            deleted = Arrays.copyOf(deleted, capacity);
            outsideHead = Arrays.copyOf(outsideHead, capacity);
        }
        faceCount++;
        corners[3 * f] = a;
        corners[3 * f + 1] = b;
        corners[3 * f + 2] = c;
        outsideHead[f] = NONE;
        deleted[f] = false;
        // Normal from the two edges at a. Its computed direction is off by about ε·|u|·|v| / |u × v| radians, which
        // is harmless unless the triangle is a sliver; those (sine of the angle at a below 1e-6) are recomputed
        // exactly, because their planes still decide which points are outside by more than the tolerance, and that
        // decision must agree with the exact visibility test (see Orientation).
        double ux = p[3 * b] - p[3 * a];
        double uy = p[3 * b + 1] - p[3 * a + 1];
        double uz = p[3 * b + 2] - p[3 * a + 2];
        double vx = p[3 * c] - p[3 * a];
        double vy = p[3 * c + 1] - p[3 * a + 1];
        double vz = p[3 * c + 2] - p[3 * a + 2];
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        double uLength = Math.sqrt(ux * ux + uy * uy + uz * uz);
        double vLength = Math.sqrt(vx * vx + vy * vy + vz * vz);
        if (!(length > SLIVER_SINE * uLength * vLength)) {
            double[] exact = Orientation.exactNormal(p, a, b, c);
            nx = exact[0];
            ny = exact[1];
            nz = exact[2];
            length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        }
        nx /= length;
        ny /= length;
        nz /= length;
        plane[4 * f] = nx;
        plane[4 * f + 1] = ny;
        plane[4 * f + 2] = nz;
        // Offset from the centroid rather than one corner: the three corners then scatter evenly around the plane.
        plane[4 * f + 3] = (nx * (p[3 * a] + p[3 * b] + p[3 * c]) + ny * (p[3 * a + 1] + p[3 * b + 1] + p[3 * c + 1])
            + nz * (p[3 * a + 2] + p[3 * b + 2] + p[3 * c + 2])) / 3.0;
        return f;
    }

    private void link(int f, int e, int g, int h) {
        neighbour[3 * f + e] = g;
        neighbourEdge[3 * f + e] = h;
        neighbour[3 * g + h] = f;
        neighbourEdge[3 * g + h] = e;
    }

    private int edgeStart(int f, int e) {
        return corners[3 * f + e];
    }

    private int edgeEnd(int f, int e) {
        return corners[3 * f + (e + 1) % 3];
    }

    private void ensureStack(int size) {
        if (size > stackFace.length) {
            int capacity = Math.max(size, 2 * stackFace.length);
            stackFace = Arrays.copyOf(stackFace, capacity);
            stackEdge = Arrays.copyOf(stackEdge, capacity);
            stackLeft = Arrays.copyOf(stackLeft, capacity);
        }
    }

    private static int[] grow(int[] array, int size) {
        return size <= array.length ? array : Arrays.copyOf(array, Math.max(size, 2 * array.length));
    }

    private double signedDistance(int f, int point) {
        return plane[4 * f] * p[3 * point] + plane[4 * f + 1] * p[3 * point + 1] + plane[4 * f + 2] * p[3 * point + 2]
            - plane[4 * f + 3];
    }

    private double signedDistanceToTriangle(int a, int b, int c, int point) {
        double ux = p[3 * b] - p[3 * a];
        double uy = p[3 * b + 1] - p[3 * a + 1];
        double uz = p[3 * b + 2] - p[3 * a + 2];
        double vx = p[3 * c] - p[3 * a];
        double vy = p[3 * c + 1] - p[3 * a + 1];
        double vz = p[3 * c + 2] - p[3 * a + 2];
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        double length = Math.sqrt(nx * nx + ny * ny + nz * nz);
        return (nx * (p[3 * point] - p[3 * a]) + ny * (p[3 * point + 1] - p[3 * a + 1])
            + nz * (p[3 * point + 2] - p[3 * a + 2])) / length;
    }

    private double distanceToLine(int a, int b, int point) {
        return PointArrays.distanceToLine(p, a, b, point);
    }

    private double distanceSquared(int a, int b) {
        double dx = p[3 * b] - p[3 * a];
        double dy = p[3 * b + 1] - p[3 * a + 1];
        double dz = p[3 * b + 2] - p[3 * a + 2];
        return dx * dx + dy * dy + dz * dz;
    }
}
