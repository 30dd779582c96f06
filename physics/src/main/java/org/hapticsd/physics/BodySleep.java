package org.hapticsd.physics;

import java.util.Arrays;

import org.hapticsd.physics.dynamics.RigidBodies;

/**
 * Puts resting islands to sleep and wakes them ({@link SleepSettings}). An island is a set of awake dynamic bodies
 * joined by candidate pairs (overlapping bounds) whose contact mode is not {@link ContactMode#NONE}: the same
 * relation that wakes a sleeping body, so a body never sleeps beside an awake one it overlaps.
 *
 * <p>A sleeping body is turned into a temporary static body in {@link RigidBodies}: not dynamic, zero inverse mass
 * and inverse inertia, zero velocity. Every stage then treats it as the floor is treated: the mode rules give its
 * pairs with static and sleeping bodies no contact, the integrator and the solvers leave it alone, and its bounds
 * need no refresh. Its mass and body-frame inertia are kept, and waking restores the rest.
 *
 * <p>Allocation-free per step: union–find over preallocated per-body arrays, grown when bodies are added.
 */
final class BodySleep {
    private final RigidBodies bodies;
    private SleepSettings settings = SleepSettings.off();
    private boolean[] asleep = new boolean[0];
    /** Per body, how long it has rested (below both thresholds) without a break, s. */
    private double[] restingS = new double[0];
    /** Union–find parent per body during {@link #update}. */
    private int[] parent = new int[0];
    /** Per body during {@link #update}: its bounds touch a kinematic body or a tool. */
    private boolean[] touchesKinematic = new boolean[0];
    /** Per island root during {@link #update}: some member has not rested long enough or touches a mover. */
    private boolean[] keptAwake = new boolean[0];
    private int asleepCount;

    BodySleep(RigidBodies bodies) {
        this.bodies = bodies;
    }

    /** Makes room for {@code bodyCount} bodies. Allocates; called when a body is added. */
    void bodyAdded(int bodyCount) {
        asleep = Arrays.copyOf(asleep, bodyCount);
        restingS = Arrays.copyOf(restingS, bodyCount);
        parent = Arrays.copyOf(parent, bodyCount);
        touchesKinematic = Arrays.copyOf(touchesKinematic, bodyCount);
        keptAwake = Arrays.copyOf(keptAwake, bodyCount);
    }

    SleepSettings settings() {
        return settings;
    }

    /** Replaces the settings; turning sleeping off wakes every body. */
    void setSettings(SleepSettings value) {
        settings = value;
        if (!value.enabled()) {
            wakeAll();
        }
    }

    boolean isAsleep(int body) {
        return asleep[body];
    }

    int asleepCount() {
        return asleepCount;
    }

    /** Wakes one body (its island follows on the next step through {@link #wakeTouched}); a no-op if awake. */
    void wake(int body) {
        restingS[body] = 0.0;
        if (!asleep[body]) {
            return;
        }
        asleep[body] = false;
        asleepCount--;
        bodies.dynamic[body] = true;
        bodies.inverseMassPerKg[body] = 1.0 / bodies.massKg[body];
        bodies.refreshPose(body);
    }

    void wakeAll() {
        for (int body = 0; body < bodies.count; body++) {
            wake(body);
        }
    }

    /**
     * Start of a step, after the broadphase: wakes every sleeping body whose bounds touch an awake dynamic body, a
     * kinematic body or a tool, over a non-NONE pair, and repeats until nothing more wakes, so that a woken island
     * is awake as a whole before any contact of this step is computed (a tool touching a sleeping box pushes it in
     * the same tick).
     */
    void wakeTouched(CandidatePairs candidates, ContactModeTable modes) {
        if (asleepCount == 0) {
            return;
        }
        boolean woke = true;
        while (woke && asleepCount > 0) {
            woke = false;
            for (int k = 0; k < candidates.count; k++) {
                int a = candidates.first[k];
                int b = candidates.second[k];
                if (asleep[a] == asleep[b] || modes.resolve(a, b) == ContactMode.NONE) {
                    continue;
                }
                int sleeper = asleep[a] ? a : b;
                int other = asleep[a] ? b : a;
                if (bodies.type[other] != BodyType.STATIC) {
                    wake(sleeper);
                    woke = true;
                }
            }
        }
    }

    /**
     * End of a step: advances each awake dynamic body's resting time, joins awake dynamic bodies into islands over
     * the step's candidate pairs, and puts to sleep every island whose bodies have all rested for
     * {@link SleepSettings#afterS()} and which touches no kinematic body or tool.
     */
    void update(double dtS, CandidatePairs candidates, ContactModeTable modes) {
        if (!settings.enabled()) {
            return;
        }
        double linearSquared = settings.linearMps() * settings.linearMps();
        double angularSquared = settings.angularRadps() * settings.angularRadps();
        int n = bodies.count;
        for (int body = 0; body < n; body++) {
            parent[body] = body;
            touchesKinematic[body] = false;
            keptAwake[body] = false;
            if (!awakeDynamic(body)) {
                continue;
            }
            boolean resting = bodies.linearVelocityMps[body].lengthSquared() <= linearSquared
                && bodies.angularVelocityRadps[body].lengthSquared() <= angularSquared;
            restingS[body] = resting ? restingS[body] + dtS : 0.0;
        }
        for (int k = 0; k < candidates.count; k++) {
            int a = candidates.first[k];
            int b = candidates.second[k];
            if (modes.resolve(a, b) == ContactMode.NONE) {
                continue;
            }
            if (awakeDynamic(a) && awakeDynamic(b)) {
                union(a, b);
            } else if (awakeDynamic(a) && bodies.type[b] == BodyType.KINEMATIC) {
                touchesKinematic[a] = true;
            } else if (awakeDynamic(b) && bodies.type[a] == BodyType.KINEMATIC) {
                touchesKinematic[b] = true;
            }
        }
        for (int body = 0; body < n; body++) {
            if (awakeDynamic(body) && (touchesKinematic[body] || restingS[body] < settings.afterS())) {
                keptAwake[find(body)] = true;
            }
        }
        for (int body = 0; body < n; body++) {
            if (awakeDynamic(body) && !keptAwake[find(body)]) {
                sleep(body);
            }
        }
    }

    private boolean awakeDynamic(int body) {
        return bodies.type[body] == BodyType.DYNAMIC && !asleep[body];
    }

    private void sleep(int body) {
        asleep[body] = true;
        asleepCount++;
        bodies.dynamic[body] = false;
        bodies.inverseMassPerKg[body] = 0.0;
        bodies.inverseInertiaWorld[body].zero();
        bodies.linearVelocityMps[body].zero();
        bodies.angularVelocityRadps[body].zero();
    }

    private int find(int body) {
        int root = body;
        while (parent[root] != root) {
            root = parent[root];
        }
        // Path compression: later finds on this island are one hop.
        int at = body;
        while (parent[at] != root) {
            int next = parent[at];
            parent[at] = root;
            at = next;
        }
        return root;
    }

    private void union(int a, int b) {
        int rootA = find(a);
        int rootB = find(b);
        if (rootA != rootB) {
            // The lower index becomes the root: deterministic, whatever the pair order.
            if (rootA < rootB) {
                parent[rootB] = rootA;
            } else {
                parent[rootA] = rootB;
            }
        }
    }
}
