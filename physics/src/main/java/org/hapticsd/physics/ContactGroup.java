package org.hapticsd.physics;

import org.hapticsd.physics.dynamics.ContactPoints;
import org.hapticsd.physics.dynamics.RigidBodies;
import org.hapticsd.physics.dynamics.contact.ContactMatcher;
import org.hapticsd.physics.dynamics.contact.ContactModel;
import org.hapticsd.physics.dynamics.contact.ContactOnsets;
import org.hapticsd.physics.dynamics.contact.LcpContactModel;
import org.hapticsd.physics.dynamics.contact.PointIndices;
import org.joml.Vector3d;

/**
 * One set of contact points with everything that follows them through a step: the point pool, each point's match
 * with the last step's ({@link ContactMatcher}, {@code previous}) and one contact model per mode, which carries its
 * state by that match. The one-lane step has one group for all its pairs; a split step
 * ({@link PhysicsWorld#setStepLanes}) has one per lane and one for the pairs across them, each sorted by pair as the
 * matcher needs.
 */
final class ContactGroup {

    final ContactPoints points = new ContactPoints();
    final ContactMatcher matcher = new ContactMatcher();
    /** Per point slot of this step: the slot of the last step's point it continues, or -1 (ContactMatcher). */
    int[] previous = new int[0];
    /** One model per mode, by ordinal (null for NONE). */
    final ContactModel[] modelByMode = new ContactModel[ContactMode.count()];
    /** The same models without NONE's gap, in the order of the modes: every stage calls each in this order. */
    final ContactModel[] models;
    /** Per mode, by ordinal: the points of this step that are that mode's, in the narrowphase's order. */
    final PointIndices[] byMode = new PointIndices[ContactMode.count()];
    final LcpContactModel lcp;
    /** A lane's group only: its pairs of this step (bodies A and B, mode), in pair order. */
    int[] pairA = new int[0];
    int[] pairB = new int[0];
    ContactMode[] pairMode = new ContactMode[0];
    int pairCount;
    /** A lane's group only: the points its narrowphase found this step, stored or not (the pool may be full). */
    int found;
    /** A lane's group only: its points that continue none of the last step's, with their approach speeds. */
    final ContactOnsets onsets = new ContactOnsets();

    ContactGroup() {
        this(null);
    }

    /**
     * A group with its own LCP model and, when {@code sharing} is given, that group's models for the other modes
     * (the ones a scene configures through {@code PhysicsWorld.contactModel}); otherwise its own of every mode.
     */
    ContactGroup(ContactGroup sharing) {
        int modelCount = 0;
        for (int m = 0; m < ContactMode.count(); m++) {
            boolean own = sharing == null || m == ContactMode.LCP.ordinal();
            modelByMode[m] = own ? ContactMode.ofOrdinal(m).newModel() : sharing.modelByMode[m];
            byMode[m] = new PointIndices();
            if (modelByMode[m] != null) {
                modelCount++;
            }
        }
        models = new ContactModel[modelCount];
        int next = 0;
        for (ContactModel model : modelByMode) {
            if (model != null) {
                models[next++] = model;
            }
        }
        lcp = (LcpContactModel) modelByMode[ContactMode.LCP.ordinal()];
    }

    /** Empties the pool and the per-mode lists and rewinds the matcher: the start of a narrowphase pass. */
    void beginCollect() {
        points.count = 0;
        for (PointIndices indices : byMode) {
            indices.clear();
        }
        matcher.beginLookup();
    }

    /** PREPARE_CONTACTS for this group's points: each model's rows or forces from the start-of-step state. */
    void prepare(StepContext context, RigidBodies bodies) {
        for (ContactModel model : models) {
            model.prepare(context, bodies, points, byMode[model.mode().ordinal()], previous);
        }
    }

    /** Each model's results into the points and its memory for the next step, then the matcher's record. */
    void store(StepContext context) {
        for (ContactModel model : models) {
            model.store(context, points);
        }
        matcher.record(points);
    }

    /**
     * The points that continue none of the last step's, with the speed their surfaces were closing at (the
     * start-of-step velocities: call before any stage changes them), into {@code out} by this pool's slots.
     */
    void findOnsets(RigidBodies bodies, ContactOnsets out, Vector3d velocityAMps, Vector3d velocityBMps) {
        out.clear();
        for (int i = 0; i < points.count; i++) {
            if (previous[i] >= 0) {
                continue;
            }
            int a = points.bodyA[i];
            int b = points.bodyB[i];
            bodies.angularVelocityRadps[a].cross(points.leverArmAM[i], velocityAMps).add(bodies.linearVelocityMps[a]);
            bodies.angularVelocityRadps[b].cross(points.leverArmBM[i], velocityBMps).add(bodies.linearVelocityMps[b]);
            out.add(i, a, b, -velocityAMps.sub(velocityBMps).dot(points.normal[i]));
        }
    }

    /** Appends a pair (its bodies in A/B roles and its mode) to this lane's group. */
    void addPair(int a, int b, ContactMode mode) {
        pairA[pairCount] = a;
        pairB[pairCount] = b;
        pairMode[pairCount] = mode;
        pairCount++;
    }

    /** Sizes the pool, the match and the per-mode lists for {@code maxPoints}. Allocates. */
    void reservePoints(int maxPoints, int maxPairs) {
        points.ensureCapacity(maxPoints);
        points.count = 0;
        matcher.reserve(maxPoints);
        previous = new int[maxPoints];
        onsets.reserve(maxPoints);
        for (PointIndices indices : byMode) {
            indices.reserve(maxPoints);
        }
        if (pairA.length < maxPairs) {
            pairA = new int[maxPairs];
            pairB = new int[maxPairs];
            pairMode = new ContactMode[maxPairs];
        }
        pairCount = 0;
    }
}
