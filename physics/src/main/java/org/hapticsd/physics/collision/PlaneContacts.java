package org.hapticsd.physics.collision;

import org.joml.Vector3d;

/**
 * A convex polytope against a half-space: every vertex below the plane is a contact point, placed on the plane
 * (Springhead's model, seed 002: a hull resting on a face gets that face's corners). More than
 * {@link ContactManifold#MAX_POINTS} vertices below (a many-sided face resting flat) are reduced to the polygon's
 * hull and sampled, so the manifold still spans the face. Ids are vertex index + 1.
 */
final class PlaneContacts {
    private final ContactCandidates candidates;

    PlaneContacts(ContactCandidates candidates) {
        this.candidates = candidates;
    }

    boolean polytopePlane(Polytope a, Vector3d planeNormal, double planeOffsetM, double marginM,
                          ContactManifold out) {
        double nx = planeNormal.x;
        double ny = planeNormal.y;
        double nz = planeNormal.z;
        candidates.clear();
        double[] v = a.vertexM;
        for (int i = 0; i < a.vertexCount && !candidates.isFull(); i++) {
            double x = v[3 * i];
            double y = v[3 * i + 1];
            double z = v[3 * i + 2];
            double depthM = planeOffsetM - (nx * x + ny * y + nz * z);
            if (depthM > -marginM) {
                candidates.add(x + nx * depthM, y + ny * depthM, z + nz * depthM, depthM, i + 1, nx, ny, nz);
            }
        }
        if (candidates.count == 0) {
            return false;
        }
        out.normal.set(nx, ny, nz);
        if (candidates.count <= ContactManifold.MAX_POINTS) {
            candidates.writeTo(out);
        } else {
            candidates.writeHullTo(nx, ny, nz, out);
        }
        return true;
    }
}
