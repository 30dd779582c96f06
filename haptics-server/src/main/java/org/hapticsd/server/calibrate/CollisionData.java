package org.hapticsd.server.calibrate;

import java.util.List;
import org.joml.Matrix3d;
import org.joml.Matrix3dc;
import org.joml.Vector3dc;

/**
 * Measured collisions to calibrate the impulse waveform model against (source 000 §5): events, each a set of bodies
 * with their state just before and just after the event, and the contacts through which they collided. An event of
 * one contact is a single-point collision; an event of several (a row of touching balls struck at one end) is a
 * simultaneous multi-point collision. The format is {@link CollisionDataReader}'s; docs/calibration.md.
 *
 * @param source where the data came from (a file name), for messages
 */
public record CollisionData(String source, List<Event> events) {

    public CollisionData {
        events = List.copyOf(events);
    }

    /** Contacts in all events. */
    public int contactCount() {
        int n = 0;
        for (Event event : events) {
            n += event.contacts().size();
        }
        return n;
    }

    /** Whether any contact carries force samples (what identifies {@code S_h} and {@code S_w}). */
    public boolean hasForceSamples() {
        for (Event event : events) {
            for (Contact contact : event.contacts()) {
                if (contact.hasForceSamples()) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * One collision event: its bodies and contacts, in the order they were first named.
     *
     * @param line the line of the event's first row, for messages
     */
    public record Event(String id, List<Body> bodies, List<Contact> contacts, int line) {
        public Event {
            bodies = List.copyOf(bodies);
            contacts = List.copyOf(contacts);
        }

        /** Whether this is a simultaneous multi-point collision (more than one contact). */
        public boolean multiPoint() {
            return contacts.size() > 1;
        }
    }

    /**
     * A body of an event. All vectors in the world frame at the onset, SI units.
     *
     * @param massKg infinite for a body that does not move (the floor, a wall, a static block)
     * @param inertiaKgM2 the inertia tensor about the centre of mass, or null for a particle (a body whose rotation
     *                    is not measured nor modelled, such as a haptic tool's tip)
     * @param angularMeasured whether pre- and post-event angular velocities were given
     */
    public record Body(String name, double massKg, Matrix3dc inertiaKgM2, Vector3dc positionM,
                       Vector3dc velocityBeforeMps, Vector3dc angularVelocityBeforeRadps,
                       Vector3dc velocityAfterMps, Vector3dc angularVelocityAfterRadps, boolean angularMeasured) {

        /** Whether the body moves (a finite mass). */
        public boolean moves() {
            return Double.isFinite(massKg);
        }

        public double inverseMassPerKg() {
            return moves() ? 1.0 / massKg : 0.0;
        }

        /** The inverse inertia tensor into {@code dest}: zero for a particle or a body that does not move. */
        public Matrix3d inverseInertia(Matrix3d dest) {
            if (!moves() || inertiaKgM2 == null) {
                return dest.zero();
            }
            return dest.set(inertiaKgM2).invert();
        }

        /** Whether rotation is modelled: a moving body with an inertia tensor. */
        public boolean rotates() {
            return moves() && inertiaKgM2 != null;
        }
    }

    /**
     * A contact of an event: body {@code a} and body {@code b} (indices into the event's bodies) touching at
     * {@code pointM}, with the unit normal from {@code b} toward {@code a}; optionally the measured normal force on
     * {@code a}, sampled every {@code forceDtS} from the onset of the contact's first collision.
     */
    public record Contact(int a, int b, Vector3dc pointM, Vector3dc normal, double forceDtS, double[] forceN,
                          int line) {

        public boolean hasForceSamples() {
            return forceN != null && forceN.length > 0;
        }

        /** The pair's key, the two names in order ({@code "b0-b1"}): what a correlation ratio belongs to. */
        public static String pairKey(String nameA, String nameB) {
            return nameA.compareTo(nameB) <= 0 ? nameA + "-" + nameB : nameB + "-" + nameA;
        }
    }
}
