package org.hapticsd.physics.collision;

/**
 * Contact points gathered before they go into a {@link ContactManifold}, and the reduction that picks which of them
 * the manifold keeps when there are more than {@link ContactManifold#MAX_POINTS}, or when several triangle manifolds
 * are merged. Each candidate carries the normal of the test that made it so a merge can drop candidates that push
 * the wrong way. Scratch owned by one {@link Narrowphase}; grows only when the scene changes.
 *
 * <p>Reduction keeps the vertices of the contact polygon (Springhead's contact model, seed 002): candidates are
 * merged when they coincide, projected on the contact plane, and only the vertices of their convex hull stay
 * (points inside it or on its edges add nothing to the support polygon). A point deeper than every hull vertex
 * by more than {@link #COINCIDENT_M} stays too, since it carries penetration the solver must remove. If more than
 * {@code MAX_POINTS} remain, farthest-point sampling from the deepest point keeps the ones that span the polygon
 * best. The rejected alternative, keeping the deepest
 * points ({@link ContactManifold#addPoint}'s rule), keeps eight points of one side of a tilted many-sided face.
 */
final class ContactCandidates {
    /**
     * Candidates closer than this are one point: a nanometre, a millionth of the smallest shape the tests use and
     * a million times the rounding of centimetre coordinates, so recomputing a shared vertex from two triangles
     * merges but two real corners never do.
     */
    static final double COINCIDENT_M = 1e-9;

    /**
     * A hull vertex whose turn is below this fraction of the squared extent is on a straight edge and dropped:
     * 1e-9 relative, far above rounding (1e-16) and far below any real corner.
     */
    private static final double COLLINEAR_RELATIVE = 1e-9;

    private static final int MAX = ContactManifold.MAX_POINTS;

    int count;
    private double[] pointM;
    private double[] normal;
    private double[] depthM;
    private int[] featureId;
    private boolean[] faceContact;
    private double[] u;
    private double[] v;
    private int[] order;
    private int[] hull;
    private boolean[] selected;
    private double[] nearestSquaredM2;

    ContactCandidates(int capacity) {
        allocate(capacity);
    }

    int capacity() {
        return depthM.length;
    }

    void ensureCapacity(int capacity) {
        if (depthM.length < capacity) {
            allocate(capacity);
            count = 0;
        }
    }

    private void allocate(int capacity) {
        pointM = new double[3 * capacity];
        normal = new double[3 * capacity];
        depthM = new double[capacity];
        featureId = new int[capacity];
        faceContact = new boolean[capacity];
        u = new double[capacity];
        v = new double[capacity];
        order = new int[capacity];
        hull = new int[2 * capacity + 1];
        selected = new boolean[capacity];
        nearestSquaredM2 = new double[capacity];
    }

    void clear() {
        count = 0;
    }

    boolean isFull() {
        return count == depthM.length;
    }

    /** Adds a candidate; the caller keeps {@code count < capacity()} (see {@link #isFull}). */
    void add(double x, double y, double z, double depth, int id, double nx, double ny, double nz) {
        add(x, y, z, depth, id, nx, ny, nz, false);
    }

    /**
     * Adds a candidate, marking whether it came from a contact along the face normal of its own triangle (as
     * opposed to an edge or vertex of it), which {@link #keepConsistent} uses.
     */
    void add(double x, double y, double z, double depth, int id, double nx, double ny, double nz,
             boolean fromFace) {
        int i = count++;
        faceContact[i] = fromFace;
        pointM[3 * i] = x;
        pointM[3 * i + 1] = y;
        pointM[3 * i + 2] = z;
        normal[3 * i] = nx;
        normal[3 * i + 1] = ny;
        normal[3 * i + 2] = nz;
        depthM[i] = depth;
        featureId[i] = id;
    }

    double depth(int i) {
        return depthM[i];
    }

    double normalX(int i) {
        return normal[3 * i];
    }

    double normalY(int i) {
        return normal[3 * i + 1];
    }

    double normalZ(int i) {
        return normal[3 * i + 2];
    }

    /** Index of the deepest candidate, the first of equals; -1 when empty. */
    int deepest() {
        int best = -1;
        for (int i = 0; i < count; i++) {
            if (best < 0 || depthM[i] > depthM[best]) {
                best = i;
            }
        }
        return best;
    }

    /**
     * Keeps, in order, the candidates whose normal is (nx, ny, nz) to within {@code sameCos}, and the face
     * candidates whose normal is within the angle of {@code faceCos} of it.
     */
    void keepConsistent(double nx, double ny, double nz, double sameCos, double faceCos) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            double cos = normal[3 * i] * nx + normal[3 * i + 1] * ny + normal[3 * i + 2] * nz;
            if (cos >= sameCos || (faceContact[i] && cos >= faceCos)) {
                move(i, kept++);
            }
        }
        count = kept;
    }

    /**
     * Writes every candidate into {@code out} in order when they fit, else the farthest-point sample of
     * {@link ContactManifold#MAX_POINTS} of them starting from the deepest. For candidates that already form a
     * convex polygon (a clipped face), in polygon order.
     */
    void writeTo(ContactManifold out) {
        if (count <= MAX) {
            for (int i = 0; i < count; i++) {
                out.addPoint(pointM[3 * i], pointM[3 * i + 1], pointM[3 * i + 2], depthM[i], featureId[i]);
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            hull[i] = i;
        }
        writeSample(count, deepest(), out);
    }

    /**
     * Reduces the candidates to the vertices of their convex hull on the plane normal to (nx, ny, nz), plus the
     * deepest, then samples down to {@link ContactManifold#MAX_POINTS}, writing them into {@code out} in hull
     * order.
     */
    void writeHullTo(double nx, double ny, double nz, ContactManifold out) {
        if (count == 0) {
            return;
        }
        mergeCoincident();
        int hullCount = planarHull(nx, ny, nz);
        // The deepest point joins the polygon's vertices only if it is deeper than all of them by more than
        // rounding: a cut point on a polygon side that is one ulp deeper than the corners adds nothing.
        int deepest = deepest();
        double deepestOnHullM = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < hullCount; k++) {
            deepestOnHullM = Math.max(deepestOnHullM, depthM[hull[k]]);
        }
        if (depthM[deepest] > deepestOnHullM + COINCIDENT_M) {
            hull[hullCount++] = deepest;
        } else {
            deepest = hull[0];
            for (int k = 1; k < hullCount; k++) {
                if (depthM[hull[k]] > depthM[deepest]) {
                    deepest = hull[k];
                }
            }
        }
        if (hullCount <= MAX) {
            for (int k = 0; k < hullCount; k++) {
                int i = hull[k];
                out.addPoint(pointM[3 * i], pointM[3 * i + 1], pointM[3 * i + 2], depthM[i], featureId[i]);
            }
            return;
        }
        writeSample(hullCount, deepest, out);
    }

    /** Replaces the buffer by its reduced set (hull, deepest, sample), to make room while merging. */
    void compact(double nx, double ny, double nz, ContactManifold scratch) {
        scratch.clear();
        writeHullTo(nx, ny, nz, scratch);
        count = 0;
        scratch.normal.set(nx, ny, nz);
        for (int i = 0; i < scratch.pointCount(); i++) {
            add(scratch.point(i).x(), scratch.point(i).y(), scratch.point(i).z(), scratch.depth(i),
                scratch.featureId(i), nx, ny, nz);
        }
    }

    /** Farthest-point sampling over {@code hull[0 .. n)}, starting from {@code first}; written in hull order. */
    private void writeSample(int n, int first, ContactManifold out) {
        for (int k = 0; k < n; k++) {
            selected[k] = hull[k] == first;
            nearestSquaredM2[k] = distanceSquared(hull[k], first);
        }
        for (int picked = 1; picked < MAX; picked++) {
            int best = -1;
            for (int k = 0; k < n; k++) {
                if (!selected[k] && (best < 0 || nearestSquaredM2[k] > nearestSquaredM2[best])) {
                    best = k;
                }
            }
            selected[best] = true;
            for (int k = 0; k < n; k++) {
                nearestSquaredM2[k] = Math.min(nearestSquaredM2[k], distanceSquared(hull[k], hull[best]));
            }
        }
        for (int k = 0; k < n; k++) {
            if (selected[k]) {
                int i = hull[k];
                out.addPoint(pointM[3 * i], pointM[3 * i + 1], pointM[3 * i + 2], depthM[i], featureId[i]);
            }
        }
    }

    /** Merges candidates closer than {@link #COINCIDENT_M}, keeping the deeper one's depth and id. */
    private void mergeCoincident() {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int same = -1;
            for (int j = 0; j < kept && same < 0; j++) {
                if (distanceSquared(i, j) <= COINCIDENT_M * COINCIDENT_M) {
                    same = j;
                }
            }
            if (same < 0) {
                move(i, kept++);
            } else if (depthM[i] > depthM[same]) {
                move(i, same);
            }
        }
        count = kept;
    }

    /**
     * Andrew's monotone chain over the candidates projected on the contact plane, dropping collinear points; writes
     * the hull's candidate indices counter-clockwise into {@code hull} and returns their number. Two or fewer
     * candidates are all hull.
     */
    private int planarHull(double nx, double ny, double nz) {
        // A tangent basis: t1 ⟂ n from the world axis least aligned with n, t2 = n × t1.
        double t1x;
        double t1y;
        double t1z;
        if (Math.abs(nx) <= Math.abs(ny) && Math.abs(nx) <= Math.abs(nz)) {
            t1x = 0.0;
            t1y = nz;
            t1z = -ny;
        } else if (Math.abs(ny) <= Math.abs(nz)) {
            t1x = -nz;
            t1y = 0.0;
            t1z = nx;
        } else {
            t1x = ny;
            t1y = -nx;
            t1z = 0.0;
        }
        double length = Math.sqrt(t1x * t1x + t1y * t1y + t1z * t1z);
        t1x /= length;
        t1y /= length;
        t1z /= length;
        double t2x = ny * t1z - nz * t1y;
        double t2y = nz * t1x - nx * t1z;
        double t2z = nx * t1y - ny * t1x;
        double minU = Double.POSITIVE_INFINITY;
        double maxU = Double.NEGATIVE_INFINITY;
        double minV = Double.POSITIVE_INFINITY;
        double maxV = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            double x = pointM[3 * i];
            double y = pointM[3 * i + 1];
            double z = pointM[3 * i + 2];
            u[i] = x * t1x + y * t1y + z * t1z;
            v[i] = x * t2x + y * t2y + z * t2z;
            minU = Math.min(minU, u[i]);
            maxU = Math.max(maxU, u[i]);
            minV = Math.min(minV, v[i]);
            maxV = Math.max(maxV, v[i]);
        }
        if (count <= 2) {
            for (int i = 0; i < count; i++) {
                hull[i] = i;
            }
            return count;
        }
        double extentSquared = (maxU - minU) * (maxU - minU) + (maxV - minV) * (maxV - minV);
        double collinear = COLLINEAR_RELATIVE * extentSquared;
        // Insertion sort by (u, v), stable: the few candidates of a contact make it the cheapest sort that
        // allocates nothing.
        for (int i = 0; i < count; i++) {
            int j = i;
            while (j > 0 && before(i, order[j - 1])) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = i;
        }
        int size = 0;
        for (int k = 0; k < count; k++) {
            int p = order[k];
            while (size >= 2 && turn(hull[size - 2], hull[size - 1], p) <= collinear) {
                size--;
            }
            hull[size++] = p;
        }
        int lower = size + 1;
        for (int k = count - 2; k >= 0; k--) {
            int p = order[k];
            while (size >= lower && turn(hull[size - 2], hull[size - 1], p) <= collinear) {
                size--;
            }
            hull[size++] = p;
        }
        // The last point repeats the first.
        return Math.max(size - 1, 1);
    }

    private boolean before(int a, int b) {
        return u[a] < u[b] || (u[a] == u[b] && v[a] < v[b]);
    }

    /** Twice the signed area of (o, a, b) on the contact plane: positive for a counter-clockwise turn. */
    private double turn(int o, int a, int b) {
        return (u[a] - u[o]) * (v[b] - v[o]) - (v[a] - v[o]) * (u[b] - u[o]);
    }

    private double distanceSquared(int i, int j) {
        double dx = pointM[3 * i] - pointM[3 * j];
        double dy = pointM[3 * i + 1] - pointM[3 * j + 1];
        double dz = pointM[3 * i + 2] - pointM[3 * j + 2];
        return dx * dx + dy * dy + dz * dz;
    }

    private void move(int from, int to) {
        if (from == to) {
            return;
        }
        pointM[3 * to] = pointM[3 * from];
        pointM[3 * to + 1] = pointM[3 * from + 1];
        pointM[3 * to + 2] = pointM[3 * from + 2];
        normal[3 * to] = normal[3 * from];
        normal[3 * to + 1] = normal[3 * from + 1];
        normal[3 * to + 2] = normal[3 * from + 2];
        depthM[to] = depthM[from];
        featureId[to] = featureId[from];
        faceContact[to] = faceContact[from];
    }
}
