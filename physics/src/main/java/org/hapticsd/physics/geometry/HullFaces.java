package org.hapticsd.physics.geometry;

import java.util.Arrays;

/**
 * Turns the closed, exactly convex triangle surface that {@link QuickHull} builds into a {@link ConvexHull}:
 * coplanar triangles merged into convex polygons, points in the middle of a face or an edge dropped, the remaining
 * vertices renumbered in input order. A second step after construction, kept apart because it is a different idea
 * (tolerance-driven simplification of a valid surface) from building that surface.
 *
 * <p>One instance per hull; allocates freely (scene set-up).
 */
final class HullFaces {

    private static final int NONE = -1;

    private final double[] p;
    private final double toleranceM;
    private final int faceCount;
    private final int[] corners;
    private final int[] neighbour;
    private final double[] plane;
    private final boolean[] deleted;

    /**
     * @param pointsM    x, y, z of every input point
     * @param faceCount  triangles in the arrays, deleted ones included
     * @param corners    three point indices per triangle, counter-clockwise seen from outside
     * @param neighbour  per triangle and edge k (corner k to corner k + 1), the triangle across that edge
     * @param plane      per triangle, the outward unit normal and offset (nx, ny, nz, d with n·x = d)
     * @param deleted    per triangle, whether it is no longer part of the surface
     */
    HullFaces(double[] pointsM, double toleranceM, int faceCount, int[] corners, int[] neighbour, double[] plane,
              boolean[] deleted) {
        this.p = pointsM;
        this.toleranceM = toleranceM;
        this.faceCount = faceCount;
        this.corners = corners;
        this.neighbour = neighbour;
        this.plane = plane;
        this.deleted = deleted;
    }

    /**
     * Groups the surviving triangles into planar convex polygons, drops the vertices that end up inside a polygon or
     * in the middle of a straight polygon edge, and renumbers the rest.
     *
     * <p>Each group grows from the largest remaining triangle, whose plane is the best conditioned, and accepts a
     * neighbour only if all its corners lie within the tolerance of that seed plane and the group's outline stays
     * one convex loop (no corner more than the tolerance outside any edge's line). Comparing with the seed rather than
     * with the neighbour just accepted keeps a finely tessellated curved surface from creeping into one face
     * through a chain of nearly coplanar pairs; the convexity condition matters for noisy, nearly coplanar clouds,
     * where the triangles within the tolerance of a plane can form an L or a ring, and the face polygons must be
     * convex for clipping. A triangle refused by one group seeds or joins another.
     */
    ConvexHull toConvexHull() {
        int aliveCount = 0;
        double[] area = new double[faceCount];
        for (int f = 0; f < faceCount; f++) {
            if (!deleted[f]) {
                aliveCount++;
                area[f] = triangleArea(f);
            }
        }
        Integer[] seeds = new Integer[aliveCount];
        for (int f = 0, i = 0; f < faceCount; f++) {
            if (!deleted[f]) {
                seeds[i++] = f;
            }
        }
        Arrays.sort(seeds, (x, y) -> area[x] != area[y] ? Double.compare(area[y], area[x]) : Integer.compare(x, y));

        int[] group = new int[faceCount];
        Arrays.fill(group, NONE);
        int[] members = new int[aliveCount];
        int[] loopOfVertex = new int[p.length / 3];
        Arrays.fill(loopOfVertex, NONE);
        int[][] polygons = new int[aliveCount][];
        int polygonCount = 0;
        int groupCount = 0;
        for (Integer seedFace : seeds) {
            int seed = seedFace;
            if (group[seed] != NONE) {
                continue;
            }
            int g = groupCount++;
            group[seed] = g;
            members[0] = seed;
            int memberCount = 1;
            int[] loop = boundaryLoop(group, members, memberCount, g, loopOfVertex);
            // Breadth-first over the members: the member list doubles as the queue.
            for (int head = 0; head < memberCount; head++) {
                int f = members[head];
                for (int e = 0; e < 3; e++) {
                    int h = neighbour[3 * f + e];
                    if (group[h] != NONE || !coplanarWith(seed, h)) {
                        continue;
                    }
                    group[h] = g;
                    members[memberCount] = h;
                    int[] grown = boundaryLoop(group, members, memberCount + 1, g, loopOfVertex);
                    if (grown != null && staysConvex(grown, seed, group, g, h)) {
                        memberCount++;
                        loop = grown;
                    } else {
                        group[h] = NONE;
                    }
                }
            }
            polygons[polygonCount++] = loop;
        }
        polygons = Arrays.copyOf(polygons, polygonCount);
        removeStraightVertices(polygons);
        return renumber(polygons);
    }

    private boolean coplanarWith(int seed, int f) {
        double alignment = plane[4 * seed] * plane[4 * f] + plane[4 * seed + 1] * plane[4 * f + 1]
            + plane[4 * seed + 2] * plane[4 * f + 2];
        if (!(alignment > 0)) {
            return false;
        }
        for (int k = 0; k < 3; k++) {
            if (Math.abs(signedDistance(seed, corners[3 * f + k])) > toleranceM) {
                return false;
            }
        }
        return true;
    }

    /**
     * The outline of the first {@code count} faces of {@code members} (all in group {@code g}) chained into one
     * counter-clockwise loop, or null if their outer edges do not form exactly one simple loop.
     * {@code loopOfVertex} is scratch, all NONE on entry and on return.
     */
    private int[] boundaryLoop(int[] group, int[] members, int count, int g, int[] loopOfVertex) {
        int edges = 0;
        for (int k = 0; k < count; k++) {
            int f = members[k];
            for (int e = 0; e < 3; e++) {
                if (group[neighbour[3 * f + e]] != g) {
                    edges++;
                }
            }
        }
        int[] ends = new int[edges];
        int[] starts = new int[edges];
        int n = 0;
        boolean simple = true;
        for (int k = 0; k < count; k++) {
            int f = members[k];
            for (int e = 0; e < 3; e++) {
                if (group[neighbour[3 * f + e]] != g) {
                    int start = edgeStart(f, e);
                    simple &= loopOfVertex[start] == NONE;
                    loopOfVertex[start] = n;
                    starts[n] = start;
                    ends[n] = edgeEnd(f, e);
                    n++;
                }
            }
        }
        int[] loop = simple ? new int[edges] : null;
        if (simple) {
            // Start at the lowest vertex index so that the output does not depend on the order of the triangles.
            int first = 0;
            for (int i = 1; i < edges; i++) {
                if (starts[i] < starts[first]) {
                    first = i;
                }
            }
            int current = first;
            for (int k = 0; k < edges && loop != null; k++) {
                if (k > 0 && current == first) {
                    loop = null;
                } else {
                    loop[k] = starts[current];
                    int next = loopOfVertex[ends[current]];
                    if (next == NONE) {
                        loop = null;
                    } else {
                        current = next;
                    }
                }
            }
            if (loop != null && current != first) {
                loop = null;
            }
        }
        for (int i = 0; i < n; i++) {
            loopOfVertex[starts[i]] = NONE;
        }
        return loop;
    }

    /**
     * Whether the outline {@code loop} of group {@code g}, just grown by triangle {@code h}, is still convex in the
     * seed plane: no corner more than the tolerance outside the line of any edge, measured in the plane. The
     * outline was convex before {@code h} joined, so only the pairs involving {@code h}'s outer edges or corners
     * need checking: O(outline) per triangle rather than O(outline²).
     *
     * <p>The test is global on purpose. Checking only consecutive corners misses the case that matters for
     * clipping: a cluster of corners a few tolerances apart at one end of a long face, whose tiny edges point
     * several degrees off, so that their side planes would cut through the far end of the face.
     */
    private boolean staysConvex(int[] loop, int seed, int[] group, int g, int h) {
        int count = loop.length;
        for (int e = 0; e < 3; e++) {
            if (group[neighbour[3 * h + e]] != g) {
                int a = edgeStart(h, e);
                int b = edgeEnd(h, e);
                for (int c : loop) {
                    if (outsideEdge(seed, a, b, c) > toleranceM) {
                        return false;
                    }
                }
            }
        }
        for (int k = 0; k < 3; k++) {
            int c = corners[3 * h + k];
            for (int i = 0; i < count; i++) {
                if (outsideEdge(seed, loop[i], loop[(i + 1) % count], c) > toleranceM) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * How far {@code c} lies outside the line {@code a → b} of a counter-clockwise outline, in the plane of face
     * {@code seed}: {@code (c − a) · d} with {@code d} the unit in-plane outward normal {@code (b − a) × n / |·|}.
     */
    private double outsideEdge(int seed, int a, int b, int c) {
        double nx = plane[4 * seed];
        double ny = plane[4 * seed + 1];
        double nz = plane[4 * seed + 2];
        double ux = p[3 * b] - p[3 * a];
        double uy = p[3 * b + 1] - p[3 * a + 1];
        double uz = p[3 * b + 2] - p[3 * a + 2];
        double dx = uy * nz - uz * ny;
        double dy = uz * nx - ux * nz;
        double dz = ux * ny - uy * nx;
        double length = Math.sqrt(dx * dx + dy * dy + dz * dz);
        if (!(length > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return (dx * (p[3 * c] - p[3 * a]) + dy * (p[3 * c + 1] - p[3 * a + 1]) + dz * (p[3 * c + 2] - p[3 * a + 2]))
            / length;
    }

    /**
     * Drops a vertex that lies, within the tolerance, on the straight line through its two neighbours in every
     * polygon that uses it: a point in the middle of a hull edge. A vertex used that way by some polygons but as a
     * corner by another is a real corner and stays.
     */
    private void removeStraightVertices(int[][] polygons) {
        int n = p.length / 3;
        int[] uses = new int[n];
        int[] straightUses = new int[n];
        for (int[] polygon : polygons) {
            for (int k = 0; k < polygon.length; k++) {
                int v = polygon[k];
                uses[v]++;
                if (isStraight(polygon, k)) {
                    straightUses[v]++;
                }
            }
        }
        boolean[] removed = new boolean[n];
        for (int v = 0; v < n; v++) {
            removed[v] = uses[v] > 0 && uses[v] == straightUses[v];
        }
        // A polygon must keep three corners; if removal would leave fewer (possible only for slivers at the
        // tolerance), its vertices all stay, in every polygon, so that neighbouring faces still share their edges.
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int[] polygon : polygons) {
                int keptCount = 0;
                for (int v : polygon) {
                    if (!removed[v]) {
                        keptCount++;
                    }
                }
                if (keptCount < 3) {
                    for (int v : polygon) {
                        changed |= removed[v];
                        removed[v] = false;
                    }
                }
            }
        }
        for (int i = 0; i < polygons.length; i++) {
            int[] polygon = polygons[i];
            int[] kept = new int[polygon.length];
            int keptCount = 0;
            for (int v : polygon) {
                if (!removed[v]) {
                    kept[keptCount++] = v;
                }
            }
            polygons[i] = Arrays.copyOf(kept, keptCount);
        }
    }

    private boolean isStraight(int[] polygon, int k) {
        int count = polygon.length;
        int u = polygon[(k + count - 1) % count];
        int w = polygon[(k + 1) % count];
        return distanceToLine(u, w, polygon[k]) <= toleranceM;
    }

    private ConvexHull renumber(int[][] polygons) {
        int n = p.length / 3;
        int[] newIndex = new int[n];
        Arrays.fill(newIndex, NONE);
        int total = 0;
        for (int[] polygon : polygons) {
            total += polygon.length;
            for (int v : polygon) {
                newIndex[v] = 0;
            }
        }
        int vertexCount = 0;
        for (int v = 0; v < n; v++) {
            if (newIndex[v] != NONE) {
                newIndex[v] = vertexCount++;
            }
        }
        double[] verticesM = new double[3 * vertexCount];
        for (int v = 0; v < n; v++) {
            if (newIndex[v] != NONE) {
                System.arraycopy(p, 3 * v, verticesM, 3 * newIndex[v], 3);
            }
        }
        int[] faceStart = new int[polygons.length + 1];
        int[] faceVertices = new int[total];
        int k = 0;
        for (int f = 0; f < polygons.length; f++) {
            faceStart[f] = k;
            for (int v : polygons[f]) {
                faceVertices[k++] = newIndex[v];
            }
        }
        faceStart[polygons.length] = k;
        return new ConvexHull(verticesM, faceStart, faceVertices);
    }

    private double triangleArea(int f) {
        int a = corners[3 * f];
        int b = corners[3 * f + 1];
        int c = corners[3 * f + 2];
        double ux = p[3 * b] - p[3 * a];
        double uy = p[3 * b + 1] - p[3 * a + 1];
        double uz = p[3 * b + 2] - p[3 * a + 2];
        double vx = p[3 * c] - p[3 * a];
        double vy = p[3 * c + 1] - p[3 * a + 1];
        double vz = p[3 * c + 2] - p[3 * a + 2];
        double nx = uy * vz - uz * vy;
        double ny = uz * vx - ux * vz;
        double nz = ux * vy - uy * vx;
        return 0.5 * Math.sqrt(nx * nx + ny * ny + nz * nz);
    }

    private int edgeStart(int f, int e) {
        return corners[3 * f + e];
    }

    private int edgeEnd(int f, int e) {
        return corners[3 * f + (e + 1) % 3];
    }

    private double signedDistance(int f, int point) {
        return plane[4 * f] * p[3 * point] + plane[4 * f + 1] * p[3 * point + 1] + plane[4 * f + 2] * p[3 * point + 2]
            - plane[4 * f + 3];
    }

    private double distanceToLine(int a, int b, int point) {
        return PointArrays.distanceToLine(p, a, b, point);
    }
}
