package org.hapticsd.physics.collision;

import org.joml.Vector3d;

/**
 * Contact between a solid convex polytope A and a convex polytope B (solid, or a one-sided triangle) by the
 * separating-axis test over face normals and edge-pair cross products, then face clipping for a face axis or the
 * closest points of the two edges for an edge axis. Serves hull–hull, box–hull and box/hull–triangle;
 * {@link BoxBoxContact} finds its axes analytically and shares {@link #build}.
 *
 * <p>Why SAT rather than GJK + EPA: for polytopes SAT gives the exact depth and normal and names the feature
 * (face or edge pair) that the manifold is built from, where EPA converges to a tolerance and its normal must
 * then be matched to a face again; and the hulls of a haptic scene (tools, handles, blocks) are small, so the
 * O(E_A·E_B) edge loop, pruned by the Gauss-map arc test, is cheap. GJK + EPA wins for hulls with hundreds of
 * vertices, which this engine does not expect.
 *
 * <p>Axis choice with hysteresis (Gregorius, GDC 2013; Box2D v3 {@code b2ClipPolygons}): B's face is the
 * reference unless A's face separates clearly more, and an edge axis wins only if it separates clearly more than
 * the best face: by {@link #FACE_RELATIVE} or {@link #EDGE_RELATIVE} of the face depth plus
 * {@link #PREFERENCE_M}. Without it rounding flips a resting box between a four-point face manifold and a
 * one-point edge manifold from step to step; the cost is a depth error of at most that margin, which the solver
 * removes in the next step.
 */
final class PolytopeContact {
    /**
     * Edge pairs whose sine of angle is below this are parallel and give no axis: their cross product is noise
     * and the face axes already cover them. At 1e-6 the normalised cross product still has 1e-10 relative error.
     */
    static final double PARALLEL_SIN = 1e-6;
    /** A's face becomes the reference only if its separation beats B's by 2 % of B's depth plus 1 µm. */
    static final double FACE_RELATIVE = 0.02;
    /** An edge axis is used only if its separation beats the best face by 5 % of that depth plus 1 µm. */
    static final double EDGE_RELATIVE = 0.05;
    /** One micrometre: below the resolution of a haptic device, above the rounding of metre-scale poses. */
    static final double PREFERENCE_M = 1e-6;

    int faceA;
    double separationAM;
    int faceB;
    double separationBM;
    /** -1 when no edge pair gave an axis. */
    int edgeA;
    int edgeB;
    double separationEdgeM;
    /** Unit edge axis pointing from A toward B. */
    double edgeNx;
    double edgeNy;
    double edgeNz;

    private final FaceClipper clipper;
    private final ContactCandidates candidates;
    private final Vector3d closestA = new Vector3d();
    private final Vector3d closestB = new Vector3d();

    PolytopeContact(FaceClipper clipper, ContactCandidates candidates) {
        this.clipper = clipper;
        this.candidates = candidates;
    }

    boolean collide(Polytope a, Polytope b, double marginM, ContactManifold out) {
        return findAxes(a, b, marginM) && build(a, b, marginM, out);
    }

    /**
     * Separation along every candidate axis; {@code false} as soon as one exceeds {@code marginM}. A face axis of A
     * separates by {@code min over B of n·v − d}; an edge pair whose arcs cross on the Gauss map is a face of the
     * Minkowski difference and separates by {@code n·(p_B − p_A)} with n the cross product turned onto A's arc.
     */
    boolean findAxes(Polytope a, Polytope b, double marginM) {
        separationAM = Double.NEGATIVE_INFINITY;
        faceA = -1;
        for (int f = 0; f < a.faceCount; f++) {
            double s = faceSeparation(a, f, b);
            if (s > marginM) {
                return false;
            }
            if (s > separationAM) {
                separationAM = s;
                faceA = f;
            }
        }
        separationBM = Double.NEGATIVE_INFINITY;
        faceB = -1;
        for (int f = 0; f < b.faceCount; f++) {
            double s = faceSeparation(b, f, a);
            if (s > marginM) {
                return false;
            }
            if (s > separationBM) {
                separationBM = s;
                faceB = f;
            }
        }
        edgeA = -1;
        separationEdgeM = Double.NEGATIVE_INFINITY;
        double[] arcA = a.edgeArc;
        double[] arcB = b.edgeArc;
        for (int i = 0; i < a.edgeCount; i++) {
            double a1x = arcA[6 * i];
            double a1y = arcA[6 * i + 1];
            double a1z = arcA[6 * i + 2];
            double a2x = arcA[6 * i + 3];
            double a2y = arcA[6 * i + 4];
            double a2z = arcA[6 * i + 5];
            // Normal of the great circle through A's arc, and the arc's bisector.
            double n1x = a1y * a2z - a1z * a2y;
            double n1y = a1z * a2x - a1x * a2z;
            double n1z = a1x * a2y - a1y * a2x;
            double mAx = a1x + a2x;
            double mAy = a1y + a2y;
            double mAz = a1z + a2z;
            double eAx = a.edgeDirection[3 * i];
            double eAy = a.edgeDirection[3 * i + 1];
            double eAz = a.edgeDirection[3 * i + 2];
            double eASquared = eAx * eAx + eAy * eAy + eAz * eAz;
            int pA = 3 * a.edgeVertex[2 * i];
            for (int j = 0; j < b.edgeCount; j++) {
                // B's arc negated (the Minkowski difference A − B): c = −b1, d = −b2.
                double cx = -arcB[6 * j];
                double cy = -arcB[6 * j + 1];
                double cz = -arcB[6 * j + 2];
                double dx = -arcB[6 * j + 3];
                double dy = -arcB[6 * j + 4];
                double dz = -arcB[6 * j + 5];
                if (!arcsCross(a1x, a1y, a1z, a2x, a2y, a2z, n1x, n1y, n1z, mAx, mAy, mAz,
                    cx, cy, cz, dx, dy, dz)) {
                    continue;
                }
                double eBx = b.edgeDirection[3 * j];
                double eBy = b.edgeDirection[3 * j + 1];
                double eBz = b.edgeDirection[3 * j + 2];
                double nx = eAy * eBz - eAz * eBy;
                double ny = eAz * eBx - eAx * eBz;
                double nz = eAx * eBy - eAy * eBx;
                double lengthSquared = nx * nx + ny * ny + nz * nz;
                double eBSquared = eBx * eBx + eBy * eBy + eBz * eBz;
                if (lengthSquared <= PARALLEL_SIN * PARALLEL_SIN * eASquared * eBSquared) {
                    continue;
                }
                double length = Math.sqrt(lengthSquared);
                nx /= length;
                ny /= length;
                nz /= length;
                if (nx * mAx + ny * mAy + nz * mAz < 0.0) {
                    nx = -nx;
                    ny = -ny;
                    nz = -nz;
                }
                int pB = 3 * b.edgeVertex[2 * j];
                double s = nx * (b.vertexM[pB] - a.vertexM[pA]) + ny * (b.vertexM[pB + 1] - a.vertexM[pA + 1])
                    + nz * (b.vertexM[pB + 2] - a.vertexM[pA + 2]);
                if (s > marginM) {
                    return false;
                }
                if (s > separationEdgeM) {
                    separationEdgeM = s;
                    edgeA = i;
                    edgeB = j;
                    edgeNx = nx;
                    edgeNy = ny;
                    edgeNz = nz;
                }
            }
        }
        return true;
    }

    /**
     * Arc a1→a2 and arc c→d on the unit sphere, each shorter than a half circle, cross iff c and d lie on opposite
     * sides of a's great circle, a1 and a2 on opposite sides of c's, and the two crossings of the great circles
     * that these sign tests find are the same point, not antipodes: the crossing direction X = n_a × n_c must face
     * both arcs' bisectors alike.
     */
    private static boolean arcsCross(double a1x, double a1y, double a1z, double a2x, double a2y, double a2z,
                                     double n1x, double n1y, double n1z, double mAx, double mAy, double mAz,
                                     double cx, double cy, double cz, double dx, double dy, double dz) {
        double cSide = cx * n1x + cy * n1y + cz * n1z;
        double dSide = dx * n1x + dy * n1y + dz * n1z;
        if (!(cSide * dSide < 0.0)) {
            return false;
        }
        double n2x = cy * dz - cz * dy;
        double n2y = cz * dx - cx * dz;
        double n2z = cx * dy - cy * dx;
        double a1Side = a1x * n2x + a1y * n2y + a1z * n2z;
        double a2Side = a2x * n2x + a2y * n2y + a2z * n2z;
        if (!(a1Side * a2Side < 0.0)) {
            return false;
        }
        double xx = n1y * n2z - n1z * n2y;
        double xy = n1z * n2x - n1x * n2z;
        double xz = n1x * n2y - n1y * n2x;
        double onA = xx * mAx + xy * mAy + xz * mAz;
        double onC = xx * (cx + dx) + xy * (cy + dy) + xz * (cz + dz);
        return onA * onC > 0.0;
    }

    /** {@code min over the other's vertices of n·v − d} for face f of p. */
    private static double faceSeparation(Polytope p, int f, Polytope other) {
        double nx = p.facePlane[4 * f];
        double ny = p.facePlane[4 * f + 1];
        double nz = p.facePlane[4 * f + 2];
        double min = Double.POSITIVE_INFINITY;
        double[] v = other.vertexM;
        for (int i = 0; i < other.vertexCount; i++) {
            min = Math.min(min, nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2]);
        }
        return min - p.facePlane[4 * f + 3];
    }

    /**
     * The manifold for the axes found: face clipping on the chosen reference face, or one point at the closest
     * points of the two edges (on B's edge). When the chosen face's clipped polygon has no point below it (possible
     * when hysteresis picked a slightly worse axis, or for a deep crossing), the other face and then the edge pair
     * are tried, so overlapping shapes never go without a manifold.
     *
     * <p>The edge pair is not tried when its axis is one of the two face normals just clipped: two edges lying in
     * parallel faces (a box on an equal box, x of one crossed with y of the other) span the face axis, with the
     * same separation up to rounding. When the faces just touch, the clipped points have depth 0 and are rightly
     * not reported, while the edge separation of −1e-17 would put one point at an arbitrary corner: a support at
     * one corner of a face, which tips the box. Measured on {@code scenes/stack.yaml}, where the rounding of the
     * start poses leaves some of the column's faces touching this way: the top box moved 0.07 mm sideways in 10 s
     * with the corner point, 0.014 mm without.
     */
    boolean build(Polytope a, Polytope b, double marginM, ContactManifold out) {
        boolean referenceIsA = clearlyBetter(separationAM, separationBM, FACE_RELATIVE);
        double faceSeparationM = Math.max(separationAM, separationBM);
        boolean edge = edgeA >= 0 && clearlyBetter(separationEdgeM, faceSeparationM, EDGE_RELATIVE);
        if (!edge) {
            if (faceContact(a, b, referenceIsA, marginM, out) || faceContact(a, b, !referenceIsA, marginM, out)) {
                return true;
            }
            if (edgeA < 0 || alongFaceNormal(a, faceA) || alongFaceNormal(b, faceB)) {
                return false;
            }
        }
        return edgePoint(a, b, marginM, out);
    }

    /** The edge axis is parallel to face {@code f} of {@code p}: their cross product is below {@link #PARALLEL_SIN}. */
    private boolean alongFaceNormal(Polytope p, int f) {
        double nx = p.facePlane[4 * f];
        double ny = p.facePlane[4 * f + 1];
        double nz = p.facePlane[4 * f + 2];
        double cx = edgeNy * nz - edgeNz * ny;
        double cy = edgeNz * nx - edgeNx * nz;
        double cz = edgeNx * ny - edgeNy * nx;
        return cx * cx + cy * cy + cz * cz <= PARALLEL_SIN * PARALLEL_SIN;
    }

    private boolean faceContact(Polytope a, Polytope b, boolean referenceIsA, double marginM, ContactManifold out) {
        candidates.clear();
        int added;
        if (referenceIsA) {
            int incident = mostAntiParallelFace(b, a, faceA);
            added = clipper.clip(a, faceA, b, incident, true, marginM, candidates);
            out.normal.set(-a.facePlane[4 * faceA], -a.facePlane[4 * faceA + 1], -a.facePlane[4 * faceA + 2]);
        } else {
            int incident = mostAntiParallelFace(a, b, faceB);
            added = clipper.clip(b, faceB, a, incident, false, marginM, candidates);
            out.normal.set(b.facePlane[4 * faceB], b.facePlane[4 * faceB + 1], b.facePlane[4 * faceB + 2]);
        }
        if (added == 0) {
            return false;
        }
        candidates.writeTo(out);
        return true;
    }

    private boolean edgePoint(Polytope a, Polytope b, double marginM, ContactManifold out) {
        double depthM = -separationEdgeM;
        if (!(depthM > -marginM)) {
            return false;
        }
        int a1 = a.edgeVertex[2 * edgeA];
        int a2 = a.edgeVertex[2 * edgeA + 1];
        int b1 = b.edgeVertex[2 * edgeB];
        int b2 = b.edgeVertex[2 * edgeB + 1];
        double[] va = a.vertexM;
        double[] vb = b.vertexM;
        ClosestPoints.segmentSegment(va[3 * a1], va[3 * a1 + 1], va[3 * a1 + 2], va[3 * a2], va[3 * a2 + 1],
            va[3 * a2 + 2], vb[3 * b1], vb[3 * b1 + 1], vb[3 * b1 + 2], vb[3 * b2], vb[3 * b2 + 1], vb[3 * b2 + 2],
            closestA, closestB);
        out.normal.set(-edgeNx, -edgeNy, -edgeNz);
        out.addPoint(closestB, depthM, FeatureIds.edge(a1, a2, b1, b2));
        return true;
    }

    /** The face of {@code incident} whose normal is most opposed to {@code reference}'s face; first of equals. */
    private static int mostAntiParallelFace(Polytope incident, Polytope reference, int referenceFace) {
        double nx = reference.facePlane[4 * referenceFace];
        double ny = reference.facePlane[4 * referenceFace + 1];
        double nz = reference.facePlane[4 * referenceFace + 2];
        int best = 0;
        double bestDot = Double.POSITIVE_INFINITY;
        for (int f = 0; f < incident.faceCount; f++) {
            double dot = nx * incident.facePlane[4 * f] + ny * incident.facePlane[4 * f + 1]
                + nz * incident.facePlane[4 * f + 2];
            if (dot < bestDot) {
                bestDot = dot;
                best = f;
            }
        }
        return best;
    }

    /** {@code candidate} separates more than {@code incumbent} by more than the hysteresis margin. */
    static boolean clearlyBetter(double candidateM, double incumbentM, double relative) {
        return candidateM > incumbentM + relative * Math.abs(incumbentM) + PREFERENCE_M;
    }
}
