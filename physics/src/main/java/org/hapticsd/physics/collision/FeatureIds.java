package org.hapticsd.physics.collision;

/**
 * The feature-id scheme of {@link ContactManifold} points, in one place. An id names the pair of features that made
 * a point so the solver can match points between steps and warm-start them; it only has to be non-zero, unique
 * within one manifold and unchanged while the same features touch. Box2D packs (index, type) pairs the same way
 * ({@code b2ContactFeature}).
 *
 * <pre>
 *  bits 31..30  kind: 00 routine-local ids: sphere, capsule and plane contacts (1, 2, ...), segment against
 *                        face f end e (1 + e + 2f), segment against edge k (0x2000_0000 | k)
 *                     01 clipped face contact, 10 edge–edge contact
 *  face (01):   bit 29 reference face on A; bits 28..22 reference face; bits 21..16 incident face;
 *               bits 15..8 reference side plane j that cut the point, 0xFF for an incident vertex kept whole;
 *               bits 7..0  the incident corner k (kept vertex), or the edge the cut ran along: incident edge k
 *                          (k → k+1), or 0x80 | i for side line i of the reference face
 *  edge (10):   bits 27..21, 20..14 the two vertex indices of A's edge; 13..7, 6..0 those of B's edge
 * </pre>
 *
 * Indices are masked to their field: hulls with more than 127 faces or vertices can repeat an id, which costs
 * only a warm start from the wrong impulse.
 */
final class FeatureIds {
    static final int KEPT_VERTEX = 0xFF;
    static final int SIDE_LINE = 0x80;

    private static final int KIND_FACE = 1 << 30;
    private static final int KIND_EDGE = 2 << 30;

    private FeatureIds() {
    }

    static int face(boolean referenceIsA, int referenceFace, int incidentFace, int clipPart) {
        return KIND_FACE | (referenceIsA ? 1 << 29 : 0) | (referenceFace & 0x7F) << 22
            | (incidentFace & 0x3F) << 16 | (clipPart & 0xFFFF);
    }

    /** The 16 low bits of a face id: side plane (or {@link #KEPT_VERTEX}) and incident corner or edge tag. */
    static int clipPart(int sidePlane, int incidentTag) {
        return (sidePlane & 0xFF) << 8 | (incidentTag & 0xFF);
    }

    static int edge(int a1, int a2, int b1, int b2) {
        return KIND_EDGE | (a1 & 0x7F) << 21 | (a2 & 0x7F) << 14 | (b1 & 0x7F) << 7 | (b2 & 0x7F);
    }

    /**
     * A capsule (or sphere) segment against a face: end 0 or 1 of the part of the segment over the face. Kind 00.
     */
    static int segmentFace(int face, int end) {
        return 1 + end + 2 * (face & 0xFFFFFF);
    }

    /** A capsule (or sphere) segment against an edge of a polytope. Kind 00, above every segment-face id. */
    static int segmentEdge(int edge) {
        return 0x2000_0000 | (edge & 0xFFFFFF);
    }

    /**
     * A point of a triangle contact made distinct per triangle of a mesh: the golden-ratio multiplier spreads the
     * triangle index over all bits (Knuth's multiplicative hashing). Never 0.
     */
    static int meshTriangle(int featureId, int triangle) {
        int id = featureId * 31 + triangle * 0x9E3779B1;
        return id == 0 ? 1 : id;
    }
}
