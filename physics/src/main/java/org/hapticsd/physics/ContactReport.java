package org.hapticsd.physics;

import java.util.Arrays;

import org.hapticsd.physics.dynamics.ContactPoints;
import org.joml.Vector3d;

/**
 * What the last step reports about contacts: the force and torque on each body, summed over its contact points,
 * and one {@link Contact} view per point. Written in {@code STORE_IMPULSES}; read by the world's queries. Grows
 * with the scene and the contact pool, never during a step that stays within sizes already seen.
 */
final class ContactReport {

    private Vector3d[] forceOnBodyN = new Vector3d[0];
    private Vector3d[] torqueOnBodyNm = new Vector3d[0];
    private Contact[] views = new Contact[0];
    private int viewCount;

    private final Vector3d forceN = new Vector3d();
    private final Vector3d torqueNm = new Vector3d();

    void bodyAdded(int bodyCount) {
        int oldCount = forceOnBodyN.length;
        forceOnBodyN = Arrays.copyOf(forceOnBodyN, bodyCount);
        torqueOnBodyNm = Arrays.copyOf(torqueOnBodyNm, bodyCount);
        for (int body = oldCount; body < bodyCount; body++) {
            forceOnBodyN[body] = new Vector3d();
            torqueOnBodyNm[body] = new Vector3d();
        }
    }

    void reserve(int points) {
        int oldLength = views.length;
        if (points <= oldLength) {
            return;
        }
        views = Arrays.copyOf(views, points);
        for (int i = oldLength; i < points; i++) {
            views[i] = new Contact();
        }
    }

    /**
     * Sums the points' forces per body and fills the views. The force of point i on A is
     * {@code f_n·n + f_t} (B receives the opposite, Newton's third law); its torque about a body's centre of mass
     * is {@code r × F} with r the lever arm at detection. A sphere's normal force acts along a line through its
     * centre, so for a sphere only the friction part is taken: a frictionless tool reports exactly zero torque
     * instead of the rounding noise of {@code r × F}.
     *
     * @param spheres per body, whether its shape is a sphere
     */
    void collect(ContactPoints points, int bodyCount, boolean[] spheres) {
        for (int body = 0; body < bodyCount; body++) {
            forceOnBodyN[body].zero();
            torqueOnBodyNm[body].zero();
        }
        if (views.length < points.count) {
            reserve(points.capacity());
        }
        add(points, 0, spheres, null, null, null);
        viewCount = points.count;
    }

    /** Zeroes the sums of the bodies {@code list[0 .. count − 1]}: a lane's part of {@link #collect}. */
    void zero(int[] list, int count) {
        for (int k = 0; k < count; k++) {
            forceOnBodyN[list[k]].zero();
            torqueOnBodyNm[list[k]].zero();
        }
    }

    /**
     * A lane's part of {@link #collect}: the views of {@code points} from slot {@code base} of the report on, and
     * their forces summed per body. A body marked in {@code elsewhere} (one another lane also sums, a static
     * floor) is summed into the lane's own {@code elsewhereForceN}/{@code elsewhereTorqueNm} instead, to be added
     * by one thread afterwards ({@link #addWrench}); null sums everything here.
     */
    void add(ContactPoints points, int base, boolean[] spheres, boolean[] elsewhere, Vector3d[] elsewhereForceN,
             Vector3d[] elsewhereTorqueNm) {
        add(points, base, spheres, elsewhere, elsewhereForceN, elsewhereTorqueNm, forceN, torqueNm);
    }

    /** {@link #add(ContactPoints, int, boolean[], boolean[], Vector3d[], Vector3d[])} with a lane's scratch. */
    void add(ContactPoints points, int base, boolean[] spheres, boolean[] elsewhere, Vector3d[] elsewhereForceN,
             Vector3d[] elsewhereTorqueNm, Vector3d forceN, Vector3d torqueNm) {
        for (int i = 0; i < points.count; i++) {
            int a = points.bodyA[i];
            int b = points.bodyB[i];
            Vector3d friction = points.frictionForceN[i];
            forceN.set(points.normal[i]).mul(points.normalForceN[i]);
            // Added only when present: +0 added to −0 would flip the sign bit of a force the tool renders.
            if (friction.x != 0.0 || friction.y != 0.0 || friction.z != 0.0) {
                forceN.add(friction);
            }
            boolean aElsewhere = elsewhere != null && elsewhere[a];
            boolean bElsewhere = elsewhere != null && elsewhere[b];
            (aElsewhere ? elsewhereForceN : forceOnBodyN)[a].add(forceN);
            (bElsewhere ? elsewhereForceN : forceOnBodyN)[b].sub(forceN);
            (aElsewhere ? elsewhereTorqueNm : torqueOnBodyNm)[a]
                .add(points.leverArmAM[i].cross(spheres[a] ? friction : forceN, torqueNm));
            (bElsewhere ? elsewhereTorqueNm : torqueOnBodyNm)[b]
                .sub(points.leverArmBM[i].cross(spheres[b] ? friction : forceN, torqueNm));

            Contact view = views[base + i];
            view.bodyA = a;
            view.bodyB = b;
            view.pointM.set(points.pointM[i]);
            view.normal.set(points.normal[i]);
            view.depthM = points.depthM[i];
            view.normalSpeedMps = points.normalSpeedMps[i];
            view.forceN.set(forceN);
            view.normalForceN = points.normalForceN[i];
            view.mode = points.mode[i];
            view.featureId = points.featureId[i];
        }
    }

    /** After the lanes' {@link #add}: the number of views they wrote. */
    void viewCount(int count) {
        viewCount = count;
    }

    /** Adds a force and torque on a body from outside the contact points (a deformable body's nodes), after collect. */
    void addWrench(int body, Vector3d forceN, Vector3d torqueNm) {
        forceOnBodyN[body].add(forceN);
        torqueOnBodyNm[body].add(torqueNm);
    }

    Vector3d forceOnBody(int body) {
        return forceOnBodyN[body];
    }

    Vector3d torqueOnBody(int body) {
        return torqueOnBodyNm[body];
    }

    int count() {
        return viewCount;
    }

    Contact view(int i) {
        return views[i];
    }
}
