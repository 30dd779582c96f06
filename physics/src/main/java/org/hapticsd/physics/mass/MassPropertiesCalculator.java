package org.hapticsd.physics.mass;

import java.util.Arrays;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;

/**
 * Mass properties of uniform solids, from a density or a total mass. Closed forms for the sphere, box and capsule;
 * exact tetrahedral decomposition ({@link PolyhedronIntegrals}) for convex hulls and closed triangle meshes.
 *
 * <p>A plane and a {@link TriangleMeshShape} are static geometry: a half-space has no finite mass and a collision
 * mesh need not be closed, so both are rejected. A closed mesh that should give a dynamic body its mass goes to
 * {@link #closedMesh} directly.
 *
 * <p>Scene set-up only: every call allocates its result.
 */
public final class MassPropertiesCalculator {

    private MassPropertiesCalculator() {
    }

    /** Mass properties of {@code shape} filled with {@code densityKgPerM3}. */
    public static MassProperties ofDensity(Shape shape, double densityKgPerM3) {
        requireDensity(densityKgPerM3);
        if (shape instanceof SphereShape sphere) {
            return sphere(sphere.radiusM(), densityKgPerM3);
        }
        if (shape instanceof BoxShape box) {
            return box(box.halfXM(), box.halfYM(), box.halfZM(), densityKgPerM3);
        }
        if (shape instanceof CapsuleShape capsule) {
            return capsule(capsule.radiusM(), capsule.halfLengthM(), densityKgPerM3);
        }
        if (shape instanceof ConvexHullShape hull) {
            return convexHull(hull.hull(), densityKgPerM3);
        }
        if (shape instanceof PlaneShape) {
            throw new IllegalArgumentException("a PlaneShape is a half-space: static only, it has no mass properties");
        }
        if (shape instanceof TriangleMeshShape) {
            throw new IllegalArgumentException("a TriangleMeshShape is static collision geometry without mass "
                + "properties; for a dynamic body use a ConvexHullShape, or closedMesh(mesh, density) for a closed "
                + "mesh's mass");
        }
        throw new IllegalArgumentException("no mass properties for shape " + shape);
    }

    /** Mass properties of {@code shape} with total mass {@code massKg}, uniformly distributed. */
    public static MassProperties ofMass(Shape shape, double massKg) {
        requireMass(massKg);
        MassProperties unitDensity;
        try {
            unitDensity = ofDensity(shape, 1.0);
        } catch (IllegalArgumentException e) {
            // At 1 kg/m³ the mass is the volume: a size whose volume or inertia overflows or underflows a double (a
            // radius of 1e300 m) reached this as "massKg ... was Infinity", naming the mass the user did not get wrong.
            // The shape's own refusals (a static shape, an open mesh) pass unchanged.
            String why = e.getMessage();
            if (why == null || !(why.startsWith("massKg ") || why.contains("KgM2 must be"))) {
                throw e;
            }
            throw new IllegalArgumentException("the shape's size is outside what its volume and inertia can be "
                + "computed for in double precision (" + why + " at 1 kg/m³)", e);
        }
        return unitDensity.withMassKg(massKg);
    }

    /** Solid ball: {@code m = ρ 4/3 π r³}, {@code I = 2/5 m r²} about every axis through the centre. */
    public static MassProperties sphere(double radiusM, double densityKgPerM3) {
        requireLength("radiusM", radiusM);
        requireDensity(densityKgPerM3);
        double massKg = densityKgPerM3 * 4.0 / 3.0 * Math.PI * radiusM * radiusM * radiusM;
        double iKgM2 = 0.4 * massKg * radiusM * radiusM;
        return new MassProperties(massKg, 0, 0, 0, iKgM2, iKgM2, iKgM2, 0, 0, 0);
    }

    /**
     * Solid box with half extents {@code hx, hy, hz}: {@code m = 8 ρ hx hy hz}, and with edge lengths
     * {@code a = 2hx, b = 2hy, c = 2hz}, {@code I_xx = m/12 (b² + c²) = m/3 (hy² + hz²)} and cyclically.
     */
    public static MassProperties box(double halfXM, double halfYM, double halfZM, double densityKgPerM3) {
        requireLength("halfXM", halfXM);
        requireLength("halfYM", halfYM);
        requireLength("halfZM", halfZM);
        requireDensity(densityKgPerM3);
        double massKg = 8.0 * densityKgPerM3 * halfXM * halfYM * halfZM;
        double xx = halfXM * halfXM;
        double yy = halfYM * halfYM;
        double zz = halfZM * halfZM;
        return new MassProperties(massKg, 0, 0, 0, massKg / 3.0 * (yy + zz), massKg / 3.0 * (xx + zz),
            massKg / 3.0 * (xx + yy), 0, 0, 0);
    }

    /**
     * Solid capsule along body z: a cylinder of radius {@code r} and length {@code h = 2·halfLengthM} capped by two
     * hemispheres. With {@code m_c = ρ π r² h} and {@code m_s = ρ 4/3 π r³} (both caps together):
     * <pre>
     *   I_zz = m_c r²/2 + m_s 2r²/5
     *   I_xx = I_yy = m_c (h²/12 + r²/4) + m_s (2r²/5 + h²/4 + 3hr/8)
     * </pre>
     * The cap term is the parallel-axis (Steiner) theorem applied twice to one hemisphere of mass {@code m_s/2}:
     * about its flat face its transverse moment is {@code 2/5 (m_s/2) r²} (half a ball, symmetric about that plane);
     * its centroid lies {@code 3r/8} from the face (statics tables, e.g. Meriam &amp; Kraige, Engineering Mechanics:
     * Statics, App. D), so about the centroid it is {@code (2/5 − 9/64)(m_s/2) r² = 83/320 (m_s/2) r²}; moved to the
     * capsule centre, {@code h/2 + 3r/8} away, it is {@code (m_s/2)(83/320 r² + (h/2 + 3r/8)²)}, and the two caps
     * sum to the expression above. Shifting the flat-face moment by {@code h/2} as if it were about the centroid, a
     * common slip, leaves I_xx short by {@code m_s 3hr/8}; I_zz is unaffected because the z axis passes through both
     * centroids. Bounding the caps by a box or a cylinder, as some engines do, is coarser still.
     */
    public static MassProperties capsule(double radiusM, double halfLengthM, double densityKgPerM3) {
        requireLength("radiusM", radiusM);
        if (!(halfLengthM >= 0) || !Double.isFinite(halfLengthM)) {
            throw new IllegalArgumentException("halfLengthM must be finite and >= 0, was " + halfLengthM);
        }
        requireDensity(densityKgPerM3);
        double r = radiusM;
        double h = 2.0 * halfLengthM;
        double cylinderKg = densityKgPerM3 * Math.PI * r * r * h;
        double capsKg = densityKgPerM3 * 4.0 / 3.0 * Math.PI * r * r * r;
        double izz = cylinderKg * r * r / 2.0 + capsKg * 0.4 * r * r;
        double ixx = cylinderKg * (h * h / 12.0 + r * r / 4.0)
            + capsKg * (0.4 * r * r + h * h / 4.0 + 3.0 * h * r / 8.0);
        return new MassProperties(cylinderKg + capsKg, 0, 0, 0, ixx, ixx, izz, 0, 0, 0);
    }

    /** Uniform solid convex hull, each face fanned into triangles from its first corner. */
    public static MassProperties convexHull(ConvexHull hull, double densityKgPerM3) {
        requireDensity(densityKgPerM3);
        double refX = 0;
        double refY = 0;
        double refZ = 0;
        int n = hull.vertexCount();
        for (int i = 0; i < n; i++) {
            refX += hull.vertexX(i);
            refY += hull.vertexY(i);
            refZ += hull.vertexZ(i);
        }
        PolyhedronIntegrals integrals = new PolyhedronIntegrals(refX / n, refY / n, refZ / n);
        for (int f = 0; f < hull.faceCount(); f++) {
            int a = hull.faceVertex(f, 0);
            for (int k = 1; k + 1 < hull.faceVertexCount(f); k++) {
                int b = hull.faceVertex(f, k);
                int c = hull.faceVertex(f, k + 1);
                integrals.addTriangle(hull.vertexX(a), hull.vertexY(a), hull.vertexZ(a),
                    hull.vertexX(b), hull.vertexY(b), hull.vertexZ(b),
                    hull.vertexX(c), hull.vertexY(c), hull.vertexZ(c));
            }
        }
        if (!(integrals.volumeM3() > 0)) {
            throw new IllegalArgumentException("convex hull encloses volume " + integrals.volumeM3() + " m³");
        }
        return integrals.toMassProperties(densityKgPerM3);
    }

    /**
     * Uniform solid bounded by a closed triangle mesh. The mesh must be closed and consistently wound
     * counter-clockwise seen from outside: every edge used as often in one direction as in the other (non-manifold
     * edges and several shells are fine; holes and flipped triangles are not). It may be non-convex.
     *
     * @throws IllegalArgumentException if an edge is unbalanced (the message names it and its counts), or if the
     *     enclosed volume is not positive (the mesh is wound inside out or flat)
     */
    public static MassProperties closedMesh(TriangleMesh mesh, double densityKgPerM3) {
        requireDensity(densityKgPerM3);
        requireClosed(mesh);
        double refX = 0;
        double refY = 0;
        double refZ = 0;
        int n = mesh.vertexCount();
        for (int i = 0; i < n; i++) {
            refX += mesh.vertexX(i);
            refY += mesh.vertexY(i);
            refZ += mesh.vertexZ(i);
        }
        PolyhedronIntegrals integrals = new PolyhedronIntegrals(refX / n, refY / n, refZ / n);
        for (int t = 0; t < mesh.triangleCount(); t++) {
            int a = mesh.corner(t, 0);
            int b = mesh.corner(t, 1);
            int c = mesh.corner(t, 2);
            integrals.addTriangle(mesh.vertexX(a), mesh.vertexY(a), mesh.vertexZ(a),
                mesh.vertexX(b), mesh.vertexY(b), mesh.vertexZ(b),
                mesh.vertexX(c), mesh.vertexY(c), mesh.vertexZ(c));
        }
        double volumeM3 = integrals.volumeM3();
        if (!(volumeM3 > 0)) {
            throw new IllegalArgumentException("mesh encloses a non-positive volume (" + volumeM3 + " m³): it must be "
                + "closed with its triangles counter-clockwise seen from outside");
        }
        return integrals.toMassProperties(densityKgPerM3);
    }

    /** Closed mesh with total mass {@code massKg}; see {@link #closedMesh}. */
    public static MassProperties closedMeshOfMass(TriangleMesh mesh, double massKg) {
        requireMass(massKg);
        return closedMesh(mesh, 1.0).withMassKg(massKg);
    }

    /**
     * Each directed edge a→b must be matched by as many b→a: that is what makes the signed tetrahedra of the
     * surface cancel outside it. Sorting packed edge keys keeps this O(E log E) without a hash map.
     */
    private static void requireClosed(TriangleMesh mesh) {
        int edges = 3 * mesh.triangleCount();
        long[] keys = new long[edges];
        for (int t = 0; t < mesh.triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                int a = mesh.corner(t, k);
                int b = mesh.corner(t, (k + 1) % 3);
                // Undirected key in the high bits' order, direction in the lowest bit.
                long key = ((long) Math.min(a, b) << 32 | Math.max(a, b)) << 1 | (a < b ? 0 : 1);
                keys[3 * t + k] = key;
            }
        }
        Arrays.sort(keys);
        int i = 0;
        while (i < edges) {
            long undirected = keys[i] >>> 1;
            int forward = 0;
            int backward = 0;
            while (i < edges && keys[i] >>> 1 == undirected) {
                if ((keys[i] & 1) == 0) {
                    forward++;
                } else {
                    backward++;
                }
                i++;
            }
            if (forward != backward) {
                int low = (int) (undirected >>> 32);
                int high = (int) (undirected & 0xFFFFFFFFL);
                throw new IllegalArgumentException("mesh is not closed and consistently wound: edge " + low + "→"
                    + high + " is used " + forward + " time(s) and " + high + "→" + low + " " + backward
                    + " time(s); they must match");
            }
        }
    }

    private static void requireDensity(double densityKgPerM3) {
        if (!(densityKgPerM3 > 0) || !Double.isFinite(densityKgPerM3)) {
            throw new IllegalArgumentException("densityKgPerM3 must be finite and > 0, was " + densityKgPerM3);
        }
    }

    private static void requireMass(double massKg) {
        if (!(massKg > 0) || !Double.isFinite(massKg)) {
            throw new IllegalArgumentException("massKg must be finite and > 0, was " + massKg);
        }
    }

    private static void requireLength(String name, double valueM) {
        if (!(valueM > 0) || !Double.isFinite(valueM)) {
            throw new IllegalArgumentException(name + " must be finite and > 0, was " + valueM);
        }
    }
}
