package org.hapticsd.physics.collision;

import org.joml.Vector3d;

/**
 * A capsule (segment P0–P1 swept by a radius; a sphere when the segment is a point) against a convex polytope B:
 * a box, a hull, or a one-sided triangle.
 *
 * <ul>
 *   <li><b>Segment outside the polytope</b> (the usual case): the distance is the least of (i) the height above
 *       face f of the part of the segment inside f's prism, which is f's Voronoi region for a convex polytope,
 *       and (ii) the distance to each edge segment (Ericson §5.1.9), which covers the edge and vertex regions.
 *       A face wins ties within {@link #TIE_M}, so a capsule lying across a box edge still gets its face
 *       manifold.</li>
 *   <li><b>Segment inside</b> (Cyrus–Beck clipping against every face finds a part inside): separating axes over
 *       the face normals and the cross products of the segment with each edge, as in {@link PolytopeContact}, with
 *       the same preference for faces.</li>
 *   <li><b>Face contact</b>: the segment is clipped to the face's prism and each end of the clipped part below
 *       radius height is a point, so a capsule lying on a face gets two points, the ends of its overlap with the
 *       face, and a standing capsule one.</li>
 *   <li><b>Edge contact</b>: one point at the closest point of the edge.</li>
 * </ul>
 * A triangle is one-sided: the caller rejects a segment whose middle is behind it, and a segment reaching below
 * the face within its prism is pushed out along the face normal.
 */
final class SegmentPolytopeContact {
    /**
     * A face wins over an edge whose distance is smaller by less than this: a picometre, rounding of metre-scale
     * distances (1e-16 relative) many times over, so exact geometric ties, such as a capsule lying across an edge,
     * resolve to the face.
     */
    static final double TIE_M = 1e-12;

    private double[] height0M = new double[16];
    private double[] height1M = new double[16];
    private final Vector3d closestSegment = new Vector3d();
    private final Vector3d closestEdge = new Vector3d();
    private final Vector3d bestSegment = new Vector3d();
    private final Vector3d bestEdge = new Vector3d();
    private double clipStart;
    private double clipEnd;

    void ensureCapacity(int faceCount) {
        if (height0M.length < faceCount) {
            height0M = new double[faceCount];
            height1M = new double[faceCount];
        }
    }

    /**
     * @param point the segment is a single point (a sphere, or a capsule of zero half length): one point at most
     */
    boolean collide(double p0x, double p0y, double p0z, double p1x, double p1y, double p1z, double radiusM,
                    boolean point, Polytope b, double marginM, ContactManifold out) {
        boolean inside = heights(p0x, p0y, p0z, p1x, p1y, p1z, b);
        for (int f = 0; f < b.faceCount; f++) {
            // A face plane with the whole capsule beyond it by the margin separates them: no need for distances.
            if (Math.min(height0M[f], height1M[f]) - radiusM >= marginM) {
                return false;
            }
        }
        if (b.flat) {
            inside = clipToPrism(b, 0, p0x, p0y, p0z, p1x, p1y, p1z)
                && Math.min(heightAt(0, clipStart), heightAt(0, clipEnd)) <= 0.0;
            if (inside) {
                return facePoints(b, 0, p0x, p0y, p0z, p1x, p1y, p1z, radiusM, point, marginM, out);
            }
        } else if (inside) {
            return deep(p0x, p0y, p0z, p1x, p1y, p1z, radiusM, point, b, marginM, out);
        }
        return shallow(p0x, p0y, p0z, p1x, p1y, p1z, radiusM, point, b, marginM, out);
    }

    /**
     * Fills the heights of both ends above every face plane and clips the segment against every face half-space
     * (Cyrus–Beck; Ericson §5.3.8): returns whether some part of the segment is inside a solid polytope.
     */
    private boolean heights(double p0x, double p0y, double p0z, double p1x, double p1y, double p1z, Polytope b) {
        double tIn = 0.0;
        double tOut = 1.0;
        boolean inside = true;
        double[] plane = b.facePlane;
        for (int f = 0; f < b.faceCount; f++) {
            double h0 = plane[4 * f] * p0x + plane[4 * f + 1] * p0y + plane[4 * f + 2] * p0z - plane[4 * f + 3];
            double h1 = plane[4 * f] * p1x + plane[4 * f + 1] * p1y + plane[4 * f + 2] * p1z - plane[4 * f + 3];
            height0M[f] = h0;
            height1M[f] = h1;
            if (h0 > 0.0 && h1 > 0.0) {
                inside = false;
            } else if (h0 > 0.0) {
                tIn = Math.max(tIn, h0 / (h0 - h1));
            } else if (h1 > 0.0) {
                tOut = Math.min(tOut, h0 / (h0 - h1));
            }
        }
        return inside && tIn <= tOut;
    }

    private double heightAt(int face, double t) {
        return height0M[face] + (height1M[face] - height0M[face]) * t;
    }

    private boolean shallow(double p0x, double p0y, double p0z, double p1x, double p1y, double p1z, double radiusM,
                            boolean point, Polytope b, double marginM, ContactManifold out) {
        double faceDistanceM = Double.POSITIVE_INFINITY;
        int face = -1;
        for (int f = 0; f < b.faceCount; f++) {
            if (Math.max(height0M[f], height1M[f]) <= 0.0 || !clipToPrism(b, f, p0x, p0y, p0z, p1x, p1y, p1z)) {
                continue;
            }
            double lowestM = Math.min(heightAt(f, clipStart), heightAt(f, clipEnd));
            if (lowestM > 0.0 && lowestM < faceDistanceM) {
                faceDistanceM = lowestM;
                face = f;
            }
        }
        double edgeDistanceSquaredM2 = Double.POSITIVE_INFINITY;
        int edge = -1;
        // A triangle lists each edge twice (one per half of its Gauss arc); one pass per edge is enough here.
        int step = b.flat ? 2 : 1;
        double[] v = b.vertexM;
        for (int e = 0; e < b.edgeCount; e += step) {
            int i = 3 * b.edgeVertex[2 * e];
            int j = 3 * b.edgeVertex[2 * e + 1];
            double distanceSquared = ClosestPoints.segmentSegment(p0x, p0y, p0z, p1x, p1y, p1z,
                v[i], v[i + 1], v[i + 2], v[j], v[j + 1], v[j + 2], closestSegment, closestEdge);
            if (distanceSquared < edgeDistanceSquaredM2) {
                edgeDistanceSquaredM2 = distanceSquared;
                edge = e;
                bestSegment.set(closestSegment);
                bestEdge.set(closestEdge);
            }
        }
        double edgeDistanceM = Math.sqrt(edgeDistanceSquaredM2);
        if (face >= 0 && faceDistanceM <= edgeDistanceM + TIE_M) {
            if (!(radiusM - faceDistanceM > -marginM)) {
                return false;
            }
            clipToPrism(b, face, p0x, p0y, p0z, p1x, p1y, p1z);
            return facePoints(b, face, p0x, p0y, p0z, p1x, p1y, p1z, radiusM, point, marginM, out);
        }
        double depthM = radiusM - edgeDistanceM;
        if (edge < 0 || !(depthM > -marginM)) {
            return false;
        }
        double nx = bestSegment.x - bestEdge.x;
        double ny = bestSegment.y - bestEdge.y;
        double nz = bestSegment.z - bestEdge.z;
        if (edgeDistanceM > 0.0) {
            out.normal.set(nx / edgeDistanceM, ny / edgeDistanceM, nz / edgeDistanceM);
        } else {
            // Touching the edge exactly, outside every face region: push away from the polytope's centre.
            out.normal.set(bestEdge.x - b.centroidX, bestEdge.y - b.centroidY, bestEdge.z - b.centroidZ).normalize();
        }
        out.addPoint(bestEdge, depthM, FeatureIds.segmentEdge(edge));
        return true;
    }

    /**
     * Segment partly inside a solid polytope: the axis of least penetration among the face normals and the
     * segment-edge cross products.
     */
    private boolean deep(double p0x, double p0y, double p0z, double p1x, double p1y, double p1z, double radiusM,
                         boolean point, Polytope b, double marginM, ContactManifold out) {
        int face = 0;
        double faceSeparationM = Double.NEGATIVE_INFINITY;
        for (int f = 0; f < b.faceCount; f++) {
            double s = Math.min(height0M[f], height1M[f]);
            if (s > faceSeparationM) {
                faceSeparationM = s;
                face = f;
            }
        }
        int edge = -1;
        double edgeSeparationM = Double.NEGATIVE_INFINITY;
        double edgeNx = 0.0;
        double edgeNy = 0.0;
        double edgeNz = 0.0;
        double ux = p1x - p0x;
        double uy = p1y - p0y;
        double uz = p1z - p0z;
        double uSquared = ux * ux + uy * uy + uz * uz;
        double[] v = b.vertexM;
        for (int e = 0; !point && e < b.edgeCount; e++) {
            double ex = b.edgeDirection[3 * e];
            double ey = b.edgeDirection[3 * e + 1];
            double ez = b.edgeDirection[3 * e + 2];
            double nx = uy * ez - uz * ey;
            double ny = uz * ex - ux * ez;
            double nz = ux * ey - uy * ex;
            double lengthSquared = nx * nx + ny * ny + nz * nz;
            if (lengthSquared <= PolytopeContact.PARALLEL_SIN * PolytopeContact.PARALLEL_SIN * uSquared
                * (ex * ex + ey * ey + ez * ez)) {
                continue;
            }
            double length = Math.sqrt(lengthSquared);
            nx /= length;
            ny /= length;
            nz /= length;
            double minB = Double.POSITIVE_INFINITY;
            double maxB = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < b.vertexCount; i++) {
                double projection = nx * v[3 * i] + ny * v[3 * i + 1] + nz * v[3 * i + 2];
                minB = Math.min(minB, projection);
                maxB = Math.max(maxB, projection);
            }
            double s0 = nx * p0x + ny * p0y + nz * p0z;
            double s1 = nx * p1x + ny * p1y + nz * p1z;
            double above = Math.min(s0, s1) - maxB;
            double below = minB - Math.max(s0, s1);
            double s = Math.max(above, below);
            if (s > edgeSeparationM) {
                double sign = above >= below ? 1.0 : -1.0;
                edgeSeparationM = s;
                edge = e;
                edgeNx = sign * nx;
                edgeNy = sign * ny;
                edgeNz = sign * nz;
            }
        }
        if (edge >= 0 && PolytopeContact.clearlyBetter(edgeSeparationM, faceSeparationM,
            PolytopeContact.EDGE_RELATIVE)) {
            edge = supportingEdge(b, edge, edgeNx, edgeNy, edgeNz);
            int i = 3 * b.edgeVertex[2 * edge];
            int j = 3 * b.edgeVertex[2 * edge + 1];
            ClosestPoints.segmentSegment(p0x, p0y, p0z, p1x, p1y, p1z, v[i], v[i + 1], v[i + 2], v[j], v[j + 1],
                v[j + 2], closestSegment, closestEdge);
            out.normal.set(edgeNx, edgeNy, edgeNz);
            out.addPoint(closestEdge, radiusM - edgeSeparationM, FeatureIds.segmentEdge(edge));
            return true;
        }
        if (clipToPrism(b, face, p0x, p0y, p0z, p1x, p1y, p1z)) {
            return facePoints(b, face, p0x, p0y, p0z, p1x, p1y, p1z, radiusM, point, marginM, out);
        }
        // The segment crosses the polytope but never over this face: push its deepest end out along the face.
        boolean firstEnd = height0M[face] <= height1M[face];
        clipStart = firstEnd ? 0.0 : 1.0;
        clipEnd = clipStart;
        return facePoints(b, face, p0x, p0y, p0z, p1x, p1y, p1z, radiusM, true, marginM, out);
    }

    /**
     * Every edge parallel to {@code edge} gives the same axis; the contact belongs to the one farthest along n
     * (B's side that faces A), its midpoint highest on n. First of equals.
     */
    private static int supportingEdge(Polytope b, int edge, double nx, double ny, double nz) {
        double ex = b.edgeDirection[3 * edge];
        double ey = b.edgeDirection[3 * edge + 1];
        double ez = b.edgeDirection[3 * edge + 2];
        double eSquared = ex * ex + ey * ey + ez * ez;
        double[] v = b.vertexM;
        int best = edge;
        double bestHeight = Double.NEGATIVE_INFINITY;
        for (int e = 0; e < b.edgeCount; e++) {
            double fx = b.edgeDirection[3 * e];
            double fy = b.edgeDirection[3 * e + 1];
            double fz = b.edgeDirection[3 * e + 2];
            double cx = ey * fz - ez * fy;
            double cy = ez * fx - ex * fz;
            double cz = ex * fy - ey * fx;
            if (cx * cx + cy * cy + cz * cz > PolytopeContact.PARALLEL_SIN * PolytopeContact.PARALLEL_SIN * eSquared
                * (fx * fx + fy * fy + fz * fz)) {
                continue;
            }
            int i = 3 * b.edgeVertex[2 * e];
            int j = 3 * b.edgeVertex[2 * e + 1];
            double height = nx * (v[i] + v[j]) + ny * (v[i + 1] + v[j + 1]) + nz * (v[i + 2] + v[j + 2]);
            if (height > bestHeight) {
                bestHeight = height;
                best = e;
            }
        }
        return best;
    }

    /**
     * Points at the ends of the clipped part [clipStart, clipEnd] of the segment: depth {@code r − h}, placed on
     * the face plane below the end.
     */
    private boolean facePoints(Polytope b, int face, double p0x, double p0y, double p0z,
                               double p1x, double p1y, double p1z, double radiusM, boolean point, double marginM,
                               ContactManifold out) {
        double nx = b.facePlane[4 * face];
        double ny = b.facePlane[4 * face + 1];
        double nz = b.facePlane[4 * face + 2];
        boolean single = point || clipStart == clipEnd;
        for (int end = 0; end < (single ? 1 : 2); end++) {
            double t = end == 0 ? clipStart : clipEnd;
            double x = p0x + (p1x - p0x) * t;
            double y = p0y + (p1y - p0y) * t;
            double z = p0z + (p1z - p0z) * t;
            double heightM = heightAt(face, t);
            double depthM = radiusM - heightM;
            if (depthM > -marginM) {
                out.addPoint(x - nx * heightM, y - ny * heightM, z - nz * heightM, depthM,
                    FeatureIds.segmentFace(face, end));
            }
        }
        if (out.pointCount() == 0) {
            return false;
        }
        out.normal.set(nx, ny, nz);
        return true;
    }

    /**
     * Clips the segment to the prism over face f (the face's side planes; Cyrus–Beck), leaving the parameter range
     * in [clipStart, clipEnd].
     *
     * @return {@code false} when no part of the segment is over the face
     */
    boolean clipToPrism(Polytope b, int f, double p0x, double p0y, double p0z, double p1x, double p1y, double p1z) {
        double nx = b.facePlane[4 * f];
        double ny = b.facePlane[4 * f + 1];
        double nz = b.facePlane[4 * f + 2];
        double tIn = 0.0;
        double tOut = 1.0;
        int sides = b.faceSize(f);
        double[] v = b.vertexM;
        for (int j = 0; j < sides; j++) {
            int from = 3 * b.faceCorner(f, j);
            int to = 3 * b.faceCorner(f, (j + 1) % sides);
            double ex = v[to] - v[from];
            double ey = v[to + 1] - v[from + 1];
            double ez = v[to + 2] - v[from + 2];
            double sx = ey * nz - ez * ny;
            double sy = ez * nx - ex * nz;
            double sz = ex * ny - ey * nx;
            double offset = sx * v[from] + sy * v[from + 1] + sz * v[from + 2];
            double g0 = sx * p0x + sy * p0y + sz * p0z - offset;
            double g1 = sx * p1x + sy * p1y + sz * p1z - offset;
            if (g0 > 0.0 && g1 > 0.0) {
                return false;
            }
            if (g0 > 0.0) {
                tIn = Math.max(tIn, g0 / (g0 - g1));
            } else if (g1 > 0.0) {
                tOut = Math.min(tOut, g0 / (g0 - g1));
            }
        }
        clipStart = tIn;
        clipEnd = tOut;
        return tIn <= tOut;
    }
}
