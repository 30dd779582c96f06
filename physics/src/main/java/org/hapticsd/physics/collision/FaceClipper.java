package org.hapticsd.physics.collision;

/**
 * Face contact between two polytopes: the incident face is clipped against the side planes of the reference face
 * (Sutherland–Hodgman; Ericson §8.3.4), and every clipped vertex below the reference face becomes a contact point.
 * The clipped polygon is the intersection polygon of Springhead's model (seed 002): four corners for a box resting
 * on a larger box, an octagon for two equal squares turned 45°.
 *
 * <p>Each polygon vertex carries its feature id and the tag of the polygon edge that leaves it (an incident edge,
 * or a reference side line once a cut has run along one), so a cut point is named by the plane that cut it and
 * the edge it cut: the ids of {@link FeatureIds} stay fixed while the faces rest on each other.
 *
 * <p>Faces whose edges lie on one another (equal boxes stacked in a column) are the degenerate case of clipping:
 * an incident vertex sits on a side plane, and the sign of a sub-micrometre offset decides whether it is kept
 * whole or cut into two points a rounding error apart, and an incident edge nearly parallel to a side line
 * crosses it anywhere along its length. The clipped polygon then has five to eight vertices, some coincident,
 * some sliding along an edge, and their number changes from step to step. Vertices within {@link #SLIVER_M} of
 * the chord of their neighbours are therefore dropped: they change the support polygon by a sliver at most that
 * wide, and the four corners that remain are the polygon Springhead's model asks for.
 */
final class FaceClipper {
    /**
     * A clipped vertex closer than this to the line through its two neighbours adds nothing to the contact
     * polygon: one micrometre, as {@link PolytopeContact#PREFERENCE_M}, below the resolution of a haptic device
     * and far above the rounding of metre-scale poses. In the aligned ten-box stack ({@code scenes/stack.yaml})
     * the duplicated vertices lie a rounding error apart and the stray edge crossings, up to a millimetre from a
     * corner, within 0.1 µm of the chord between the corners.
     */
    static final double SLIVER_M = 1e-6;

    private double[] polygonM;
    private double[] clippedM;
    private int[] polygonId;
    private int[] clippedId;
    private int[] polygonTag;
    private int[] clippedTag;

    FaceClipper(int capacity) {
        allocate(capacity);
    }

    /** Room for an incident face of {@code incidentVertices} cut by {@code referenceVertices} planes. */
    void ensureCapacity(int incidentVertices, int referenceVertices) {
        if (polygonId.length < incidentVertices + referenceVertices) {
            allocate(incidentVertices + referenceVertices);
        }
    }

    private void allocate(int capacity) {
        polygonM = new double[3 * capacity];
        clippedM = new double[3 * capacity];
        polygonId = new int[capacity];
        clippedId = new int[capacity];
        polygonTag = new int[capacity];
        clippedTag = new int[capacity];
    }

    /**
     * Clips {@code incidentFace} of {@code incident} against {@code referenceFace} of {@code reference} and adds to
     * {@code dest} each clipped vertex with depth {@code d_ref − n_ref·p > −marginM}, placed on B's surface: the
     * vertex itself when the reference face is A's (the incident face is then B's), else the vertex projected on
     * the reference face. The candidates' normal is the manifold normal, B toward A.
     *
     * @return the number of candidates added
     */
    int clip(Polytope reference, int referenceFace, Polytope incident, int incidentFace, boolean referenceIsA,
             double marginM, ContactCandidates dest) {
        double nx = reference.facePlane[4 * referenceFace];
        double ny = reference.facePlane[4 * referenceFace + 1];
        double nz = reference.facePlane[4 * referenceFace + 2];
        double offsetM = reference.facePlane[4 * referenceFace + 3];
        int count = incident.faceSize(incidentFace);
        for (int k = 0; k < count; k++) {
            int vertex = incident.faceCorner(incidentFace, k);
            polygonM[3 * k] = incident.vertexM[3 * vertex];
            polygonM[3 * k + 1] = incident.vertexM[3 * vertex + 1];
            polygonM[3 * k + 2] = incident.vertexM[3 * vertex + 2];
            polygonId[k] = FeatureIds.clipPart(FeatureIds.KEPT_VERTEX, k);
            polygonTag[k] = k;
        }
        int sides = reference.faceSize(referenceFace);
        for (int j = 0; j < sides && count > 0; j++) {
            int from = 3 * reference.faceCorner(referenceFace, j);
            int to = 3 * reference.faceCorner(referenceFace, (j + 1) % sides);
            double ex = reference.vertexM[to] - reference.vertexM[from];
            double ey = reference.vertexM[to + 1] - reference.vertexM[from + 1];
            double ez = reference.vertexM[to + 2] - reference.vertexM[from + 2];
            // Side plane of edge j: normal e × n points out of a counter-clockwise face; inside is s·p <= s·v_j.
            double sx = ey * nz - ez * ny;
            double sy = ez * nx - ex * nz;
            double sz = ex * ny - ey * nx;
            double sideOffsetM = sx * reference.vertexM[from] + sy * reference.vertexM[from + 1]
                + sz * reference.vertexM[from + 2];
            count = clipByPlane(count, sx, sy, sz, sideOffsetM, j);
        }
        count = dropSlivers(count);
        int added = 0;
        for (int k = 0; k < count; k++) {
            double px = polygonM[3 * k];
            double py = polygonM[3 * k + 1];
            double pz = polygonM[3 * k + 2];
            double depthM = offsetM - (nx * px + ny * py + nz * pz);
            if (depthM > -marginM && !dest.isFull()) {
                int id = FeatureIds.face(referenceIsA, referenceFace, incidentFace, polygonId[k]);
                if (referenceIsA) {
                    dest.add(px, py, pz, depthM, id, -nx, -ny, -nz);
                } else {
                    dest.add(px + nx * depthM, py + ny * depthM, pz + nz * depthM, depthM, id, nx, ny, nz);
                }
                added++;
            }
        }
        return added;
    }

    /**
     * Removes, until none is left, each vertex within {@link #SLIVER_M} of the line through its neighbours (or of
     * its neighbour, when the two neighbours coincide), keeping at least a triangle. Returns the new count.
     */
    private int dropSlivers(int count) {
        double sliverSquaredM2 = SLIVER_M * SLIVER_M;
        boolean removed = true;
        while (removed && count > 3) {
            removed = false;
            for (int k = 0; k < count && count > 3; k++) {
                int previous = 3 * (k == 0 ? count - 1 : k - 1);
                int next = 3 * (k == count - 1 ? 0 : k + 1);
                double cx = polygonM[next] - polygonM[previous];
                double cy = polygonM[next + 1] - polygonM[previous + 1];
                double cz = polygonM[next + 2] - polygonM[previous + 2];
                double vx = polygonM[3 * k] - polygonM[previous];
                double vy = polygonM[3 * k + 1] - polygonM[previous + 1];
                double vz = polygonM[3 * k + 2] - polygonM[previous + 2];
                // Squared distance from the chord: |c × v|²/|c|², or |v|² when the chord has no length.
                double chordSquared = cx * cx + cy * cy + cz * cz;
                double distanceSquaredM2;
                if (chordSquared > 0.0) {
                    double ax = cy * vz - cz * vy;
                    double ay = cz * vx - cx * vz;
                    double az = cx * vy - cy * vx;
                    distanceSquaredM2 = (ax * ax + ay * ay + az * az) / chordSquared;
                } else {
                    distanceSquaredM2 = vx * vx + vy * vy + vz * vz;
                }
                if (distanceSquaredM2 <= sliverSquaredM2) {
                    remove(k, count);
                    count--;
                    removed = true;
                    k--;
                }
            }
        }
        return count;
    }

    private void remove(int k, int count) {
        System.arraycopy(polygonM, 3 * k + 3, polygonM, 3 * k, 3 * (count - k - 1));
        System.arraycopy(polygonId, k + 1, polygonId, k, count - k - 1);
        System.arraycopy(polygonTag, k + 1, polygonTag, k, count - k - 1);
    }

    /** One Sutherland–Hodgman pass: keeps the part of the polygon with {@code s·p <= offset}. */
    private int clipByPlane(int count, double sx, double sy, double sz, double offset, int plane) {
        int out = 0;
        for (int k = 0; k < count; k++) {
            int previous = k == 0 ? count - 1 : k - 1;
            double gPrevious = sx * polygonM[3 * previous] + sy * polygonM[3 * previous + 1]
                + sz * polygonM[3 * previous + 2] - offset;
            double gCurrent = sx * polygonM[3 * k] + sy * polygonM[3 * k + 1] + sz * polygonM[3 * k + 2] - offset;
            if (gCurrent <= 0.0) {
                if (gPrevious > 0.0) {
                    // Entering: the polygon goes on along the edge that was cut.
                    out = emitCut(out, previous, k, gPrevious, gCurrent, plane, polygonTag[previous]);
                }
                clippedM[3 * out] = polygonM[3 * k];
                clippedM[3 * out + 1] = polygonM[3 * k + 1];
                clippedM[3 * out + 2] = polygonM[3 * k + 2];
                clippedId[out] = polygonId[k];
                clippedTag[out] = polygonTag[k];
                out++;
            } else if (gPrevious <= 0.0) {
                // Leaving: the polygon goes on along this side line until it re-enters.
                out = emitCut(out, previous, k, gPrevious, gCurrent, plane, FeatureIds.SIDE_LINE | plane);
            }
        }
        double[] swapM = polygonM;
        polygonM = clippedM;
        clippedM = swapM;
        int[] swapId = polygonId;
        polygonId = clippedId;
        clippedId = swapId;
        int[] swapTag = polygonTag;
        polygonTag = clippedTag;
        clippedTag = swapTag;
        return out;
    }

    private int emitCut(int out, int from, int to, double gFrom, double gTo, int plane, int outgoingTag) {
        // g changes sign between the two vertices, so gFrom − gTo is not zero and t is in [0, 1].
        double t = gFrom / (gFrom - gTo);
        clippedM[3 * out] = polygonM[3 * from] + (polygonM[3 * to] - polygonM[3 * from]) * t;
        clippedM[3 * out + 1] = polygonM[3 * from + 1] + (polygonM[3 * to + 1] - polygonM[3 * from + 1]) * t;
        clippedM[3 * out + 2] = polygonM[3 * from + 2] + (polygonM[3 * to + 2] - polygonM[3 * from + 2]) * t;
        clippedId[out] = FeatureIds.clipPart(plane, polygonTag[from]);
        clippedTag[out] = outgoingTag;
        return out + 1;
    }
}
