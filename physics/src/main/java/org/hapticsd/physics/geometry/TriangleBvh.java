package org.hapticsd.physics.geometry;

/**
 * A static bounding-volume hierarchy over the triangles of a {@link TriangleMesh}: axis-aligned boxes, built once
 * top-down, queried with a box for the triangles whose bounds overlap it.
 *
 * <p>Build: each node's triangles are split at the median of their centroids along the longest axis of the
 * centroids' bounds, until a node holds at most {@link #MAX_LEAF_TRIANGLES}. The median split (rather than the
 * surface-area heuristic of production ray tracers) gives a balanced tree of depth about {@code log₂(n / 4)}, which
 * bounds the traversal stack at build time and keeps the worst-case query predictable, and a haptic query box is
 * small, so the few extra overlaps a better split would avoid matter less than predictability. Ties in the centroid
 * coordinate are broken by triangle index, so the tree depends only on the mesh.
 *
 * <p>Layout: flat arrays (Ericson, Real-Time Collision Detection, §6.6.2, on flattened trees): nodes in
 * breadth-first creation order with the two children of a node adjacent, so one index finds both, and the
 * triangles' bounds copied into leaf order so that a leaf scans contiguous memory instead of chasing the mesh's
 * index array.
 *
 * <p>Queries are iterative with a stack allocated at build time, so they allocate nothing; one tree therefore
 * serves one thread at a time.
 */
public final class TriangleBvh {

    /** Most triangles in one leaf. */
    public static final int MAX_LEAF_TRIANGLES = 4;

    private final TriangleMesh mesh;
    private final double[] nodeBoundsM;
    /** Inner node: index of the left child (the right one follows it). Leaf: first slot in {@link #order}. */
    private final int[] nodeFirst;
    /** Triangles in a leaf (1..4); 0 marks an inner node. */
    private final int[] nodeTriangles;
    private final int nodeCount;
    /** Triangle index per slot, leaves' triangles contiguous. */
    private final int[] order;
    /** Bounds of the triangle in each slot. */
    private final double[] slotBoundsM;
    private final int depth;
    private final int[] stack;

    public TriangleBvh(TriangleMesh mesh) {
        this.mesh = mesh;
        int n = mesh.triangleCount();
        double[] triangleBoundsM = new double[6 * n];
        double[] centroidsM = new double[3 * n];
        for (int t = 0; t < n; t++) {
            for (int axis = 0; axis < 3; axis++) {
                double a = coordinate(mesh, mesh.corner(t, 0), axis);
                double b = coordinate(mesh, mesh.corner(t, 1), axis);
                double c = coordinate(mesh, mesh.corner(t, 2), axis);
                triangleBoundsM[6 * t + axis] = Math.min(a, Math.min(b, c));
                triangleBoundsM[6 * t + 3 + axis] = Math.max(a, Math.max(b, c));
                centroidsM[3 * t + axis] = (a + b + c) / 3.0;
            }
        }
        order = new int[n];
        for (int t = 0; t < n; t++) {
            order[t] = t;
        }
        // A binary tree with at least one triangle per leaf has at most 2n − 1 nodes.
        int capacity = 2 * n - 1;
        nodeBoundsM = new double[6 * capacity];
        nodeFirst = new int[capacity];
        nodeTriangles = new int[capacity];
        int[] rangeStart = new int[capacity];
        int[] rangeEnd = new int[capacity];
        int[] nodeDepth = new int[capacity];
        int created = 1;
        rangeStart[0] = 0;
        rangeEnd[0] = n;
        int deepest = 0;
        // Nodes are processed in creation order; each split appends its two children, so this is breadth-first
        // over a growing array and needs no recursion.
        for (int node = 0; node < created; node++) {
            int from = rangeStart[node];
            int to = rangeEnd[node];
            enclose(triangleBoundsM, from, to, node);
            deepest = Math.max(deepest, nodeDepth[node]);
            if (to - from <= MAX_LEAF_TRIANGLES) {
                nodeFirst[node] = from;
                nodeTriangles[node] = to - from;
                continue;
            }
            int axis = longestCentroidAxis(centroidsM, from, to);
            int mid = (from + to) >>> 1;
            select(order, from, to, mid, centroidsM, axis);
            int left = created;
            created += 2;
            nodeFirst[node] = left;
            nodeTriangles[node] = 0;
            rangeStart[left] = from;
            rangeEnd[left] = mid;
            rangeStart[left + 1] = mid;
            rangeEnd[left + 1] = to;
            nodeDepth[left] = nodeDepth[node] + 1;
            nodeDepth[left + 1] = nodeDepth[node] + 1;
        }
        nodeCount = created;
        depth = deepest;
        slotBoundsM = new double[6 * n];
        for (int slot = 0; slot < n; slot++) {
            System.arraycopy(triangleBoundsM, 6 * order[slot], slotBoundsM, 6 * slot, 6);
        }
        // Depth-first traversal holds, besides the node being visited, at most one pending sibling per level.
        stack = new int[depth + 2];
    }

    /**
     * Writes the indices of the triangles whose bounds overlap the box (touching counts) into {@code out} and
     * returns how many there are. If that number exceeds {@code out.length}, only the first {@code out.length} are
     * written, in traversal order, and the return value still counts all of them: the caller detects overflow by
     * {@code result > out.length}, grows its array outside the real-time path and asks again. Allocation-free.
     */
    public int query(double minXM, double minYM, double minZM, double maxXM, double maxYM, double maxZM, int[] out) {
        int found = 0;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            int b = 6 * node;
            if (nodeBoundsM[b] > maxXM || nodeBoundsM[b + 3] < minXM || nodeBoundsM[b + 1] > maxYM
                    || nodeBoundsM[b + 4] < minYM || nodeBoundsM[b + 2] > maxZM || nodeBoundsM[b + 5] < minZM) {
                continue;
            }
            int count = nodeTriangles[node];
            int first = nodeFirst[node];
            if (count == 0) {
                stack[top++] = first + 1;
                stack[top++] = first;
                continue;
            }
            for (int slot = first; slot < first + count; slot++) {
                int s = 6 * slot;
                if (slotBoundsM[s] <= maxXM && slotBoundsM[s + 3] >= minXM && slotBoundsM[s + 1] <= maxYM
                        && slotBoundsM[s + 4] >= minYM && slotBoundsM[s + 2] <= maxZM && slotBoundsM[s + 5] >= minZM) {
                    if (found < out.length) {
                        out[found] = order[slot];
                    }
                    found++;
                }
            }
        }
        return found;
    }

    public TriangleMesh mesh() {
        return mesh;
    }

    public int nodeCount() {
        return nodeCount;
    }

    /** Edges on the longest path from the root to a leaf. */
    public int depth() {
        return depth;
    }

    /** Bounds of the whole mesh into {@code destM} ({@link Aabb#STRIDE} values from {@code offset}). */
    public void bounds(double[] destM, int offset) {
        System.arraycopy(nodeBoundsM, 0, destM, offset, 6);
    }

    // Structure, for tests in this package.

    boolean isLeaf(int node) {
        return nodeTriangles[node] > 0;
    }

    int leafTriangleCount(int node) {
        return nodeTriangles[node];
    }

    int leftChild(int node) {
        return nodeFirst[node];
    }

    int leafTriangle(int node, int k) {
        return order[nodeFirst[node] + k];
    }

    double nodeBound(int node, int k) {
        return nodeBoundsM[6 * node + k];
    }

    private void enclose(double[] triangleBoundsM, int from, int to, int node) {
        double[] b = nodeBoundsM;
        int o = 6 * node;
        for (int k = 0; k < 3; k++) {
            b[o + k] = Double.POSITIVE_INFINITY;
            b[o + 3 + k] = Double.NEGATIVE_INFINITY;
        }
        for (int i = from; i < to; i++) {
            int t = 6 * order[i];
            for (int k = 0; k < 3; k++) {
                b[o + k] = Math.min(b[o + k], triangleBoundsM[t + k]);
                b[o + 3 + k] = Math.max(b[o + 3 + k], triangleBoundsM[t + 3 + k]);
            }
        }
    }

    private int longestCentroidAxis(double[] centroidsM, int from, int to) {
        double[] min = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        double[] max = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (int i = from; i < to; i++) {
            int t = order[i];
            for (int k = 0; k < 3; k++) {
                min[k] = Math.min(min[k], centroidsM[3 * t + k]);
                max[k] = Math.max(max[k], centroidsM[3 * t + k]);
            }
        }
        int axis = 0;
        for (int k = 1; k < 3; k++) {
            if (max[k] - min[k] > max[axis] - min[axis]) {
                axis = k;
            }
        }
        return axis;
    }

    /**
     * Rearranges {@code order[from, to)} so that slot {@code nth} holds the triangle that would be there if the
     * range were sorted by (centroid on {@code axis}, index), with smaller ones before it and larger after:
     * quickselect with a median-of-three pivot (Hoare's FIND; expected linear time). The index tie-break makes the
     * order strict, so equal centroids (a flat grid) still split in the middle.
     */
    private static void select(int[] order, int from, int to, int nth, double[] centroidsM, int axis) {
        int lo = from;
        int hi = to - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (less(order[mid], order[lo], centroidsM, axis)) {
                swap(order, mid, lo);
            }
            if (less(order[hi], order[lo], centroidsM, axis)) {
                swap(order, hi, lo);
            }
            if (less(order[mid], order[hi], centroidsM, axis)) {
                swap(order, mid, hi);
            }
            // order[hi] is now the median of the three; partition around it.
            int pivot = order[hi];
            int store = lo;
            for (int i = lo; i < hi; i++) {
                if (less(order[i], pivot, centroidsM, axis)) {
                    swap(order, i, store++);
                }
            }
            swap(order, store, hi);
            if (store == nth) {
                return;
            }
            if (nth < store) {
                hi = store - 1;
            } else {
                lo = store + 1;
            }
        }
    }

    private static boolean less(int a, int b, double[] centroidsM, int axis) {
        double ka = centroidsM[3 * a + axis];
        double kb = centroidsM[3 * b + axis];
        return ka < kb || (ka == kb && a < b);
    }

    private static void swap(int[] order, int i, int j) {
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }

    private static double coordinate(TriangleMesh mesh, int vertex, int axis) {
        return axis == 0 ? mesh.vertexX(vertex) : axis == 1 ? mesh.vertexY(vertex) : mesh.vertexZ(vertex);
    }
}
