package org.hapticsd.physics.collision;

import org.joml.Quaterniondc;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * Exact contact tests of a sphere A against a shape B, each returning the signed penetration depth and writing
 * the contact point and normal.
 *
 * <p>Common contract:
 * <ul>
 *   <li>the return value is the depth of A into B along the normal, metres: {@code > 0} penetrating,
 *       {@code 0} touching, {@code < 0} separated by that gap. Returning the signed value rather than a boolean
 *       lets the caller choose the contact rule (this slice: {@code depth > 0}) and lets a later speculative
 *       solver use small gaps;</li>
 *   <li>{@code destNormal} receives the world unit normal pointing from B toward A (the direction that pushes A
 *       out); {@code destPointM} receives the point on B's surface that the normal leaves from;</li>
 *   <li>every input is read before any output is written, so a destination may alias an input (the JOML rule);
 *       no method allocates.</li>
 * </ul>
 * Orientations are unit quaternions.
 */
public final class SphereContacts {

    private SphereContacts() {
    }

    /**
     * Sphere against a half-space whose boundary plane passes through {@code planePositionM} with outward normal
     * {@code normalInBody} turned by {@code planeOrientation}. With {@code s = n·(c − p)} the signed distance of the
     * centre, the depth is {@code r − s}; the point is the centre projected on the plane, {@code c − s·n}. A centre
     * behind the plane still gets the outward normal: the solid is the whole half-space.
     */
    public static double sphereVsPlane(Vector3dc centreM, double radiusM,
                                       Vector3dc planePositionM, Quaterniondc planeOrientation, Vector3dc normalInBody,
                                       Vector3d destPointM, Vector3d destNormal) {
        double cx = centreM.x();
        double cy = centreM.y();
        double cz = centreM.z();
        double px = planePositionM.x();
        double py = planePositionM.y();
        double pz = planePositionM.z();
        planeOrientation.transform(normalInBody.x(), normalInBody.y(), normalInBody.z(), destNormal);
        // Renormalise: the rotation adds a few ulps of length error, and the rendered force is depth times this
        // vector, so its length must be 1 to the last bit we can get.
        destNormal.normalize();
        double s = destNormal.x * (cx - px) + destNormal.y * (cy - py) + destNormal.z * (cz - pz);
        destPointM.set(cx - s * destNormal.x, cy - s * destNormal.y, cz - s * destNormal.z);
        return radiusM - s;
    }

    /**
     * Sphere against a solid sphere of radius {@code radiusBM} centred at {@code centreBM}. The normal is the
     * direction between the centres; when they coincide it is undefined and +z is used (the world up axis), so
     * the result is still deterministic. The point is {@code cB + rB·n}.
     */
    public static double sphereVsSphere(Vector3dc centreAM, double radiusAM, Vector3dc centreBM, double radiusBM,
                                        Vector3d destPointM, Vector3d destNormal) {
        double bx = centreBM.x();
        double by = centreBM.y();
        double bz = centreBM.z();
        double dx = centreAM.x() - bx;
        double dy = centreAM.y() - by;
        double dz = centreAM.z() - bz;
        double distanceM = Math.sqrt(dx * dx + dy * dy + dz * dz);
        double nx;
        double ny;
        double nz;
        if (distanceM > 0.0) {
            nx = dx / distanceM;
            ny = dy / distanceM;
            nz = dz / distanceM;
        } else {
            nx = 0.0;
            ny = 0.0;
            nz = 1.0;
        }
        destNormal.set(nx, ny, nz);
        destPointM.set(bx + radiusBM * nx, by + radiusBM * ny, bz + radiusBM * nz);
        return radiusAM + radiusBM - distanceM;
    }

    /**
     * Sphere against a solid oriented box (Ericson, Real-Time Collision Detection, §5.1.4 closest point on an
     * OBB, and §5.2.5 sphere–OBB). Works in the box frame:
     * <ul>
     *   <li>centre outside the box: the closest point {@code q} is the centre clamped to the extents; the normal is
     *       {@code (c − q)/|c − q|} and the depth {@code r − |c − q|}. This one formula covers the face, edge and
     *       corner regions;</li>
     *   <li>centre inside (the clamp leaves it unchanged): the exit is through the face of least penetration
     *       {@code h_i − |c_i|}; the normal is that face's outward normal, the depth {@code r + h_i − |c_i|} and the
     *       point the centre projected on that face. Ties go to x, then y, then z; a centre on a mid-plane exits on
     *       the + side. The rejected alternative, pushing along the direction from the box centre, sends the tool
     *       out through the wrong face of a thin slab.</li>
     * </ul>
     */
    public static double sphereVsBox(Vector3dc centreM, double radiusM,
                                     Vector3dc boxPositionM, Quaterniondc boxOrientation,
                                     double halfXM, double halfYM, double halfZM,
                                     Vector3d destPointM, Vector3d destNormal) {
        double bx = boxPositionM.x();
        double by = boxPositionM.y();
        double bz = boxPositionM.z();
        // The sphere centre in the box frame; destPointM serves as scratch here and is overwritten below.
        boxOrientation.transformInverse(centreM.x() - bx, centreM.y() - by, centreM.z() - bz, destPointM);
        double cx = destPointM.x;
        double cy = destPointM.y;
        double cz = destPointM.z;
        double qx = clamp(cx, halfXM);
        double qy = clamp(cy, halfYM);
        double qz = clamp(cz, halfZM);
        double dx = cx - qx;
        double dy = cy - qy;
        double dz = cz - qz;
        double distanceSquaredM2 = dx * dx + dy * dy + dz * dz;
        double depthM;
        double nx;
        double ny;
        double nz;
        if (distanceSquaredM2 > 0.0) {
            double distanceM = Math.sqrt(distanceSquaredM2);
            nx = dx / distanceM;
            ny = dy / distanceM;
            nz = dz / distanceM;
            depthM = radiusM - distanceM;
        } else {
            // Inside, or outside by less than the square root of the smallest double, where the gap is negative
            // but the nearest face is still the right exit.
            double penetrationXM = halfXM - Math.abs(cx);
            double penetrationYM = halfYM - Math.abs(cy);
            double penetrationZM = halfZM - Math.abs(cz);
            nx = 0.0;
            ny = 0.0;
            nz = 0.0;
            if (penetrationXM <= penetrationYM && penetrationXM <= penetrationZM) {
                nx = cx >= 0.0 ? 1.0 : -1.0;
                qx = nx * halfXM;
                depthM = radiusM + penetrationXM;
            } else if (penetrationYM <= penetrationZM) {
                ny = cy >= 0.0 ? 1.0 : -1.0;
                qy = ny * halfYM;
                depthM = radiusM + penetrationYM;
            } else {
                nz = cz >= 0.0 ? 1.0 : -1.0;
                qz = nz * halfZM;
                depthM = radiusM + penetrationZM;
            }
        }
        boxOrientation.transform(nx, ny, nz, destNormal);
        boxOrientation.transform(qx, qy, qz, destPointM).add(bx, by, bz);
        return depthM;
    }

    private static double clamp(double value, double halfExtent) {
        return Math.max(-halfExtent, Math.min(halfExtent, value));
    }
}
