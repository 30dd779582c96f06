package org.hapticsd.benchmarks.peers;

/**
 * One physics engine holding one {@link PeerScene}, stepped by {@link PeerScene#DT_S}. Building allocates; after
 * that {@link #step} is the only thing timed.
 */
public interface PeerEngine extends AutoCloseable {

    /** Advances the scene by one step of {@link PeerScene#DT_S}. */
    void step();

    /**
     * Adds the contact points of the last step to {@code stats}: their penetration depth, m, positive when the
     * surfaces overlap, as the engine's narrowphase measured it at the start of that step.
     */
    void recordContacts(ContactStats stats);

    /** Centre of dynamic body {@code body} (in {@link PeerScene}'s order), component {@code axis}, m. */
    double centreM(int body, int axis);

    /** The largest speed of a dynamic body, m/s: whether the scene has come to rest. */
    double maxSpeedMps();

    /** Frees what the engine holds outside the Java heap. */
    @Override
    void close();

    /** The engines of the benchmark, by the names used in its parameters. */
    static PeerEngine create(String engine, PeerScene scene) {
        return switch (engine) {
            case "ours" -> new OursEngine(scene, 1);
            case "ours-2lanes" -> new OursEngine(scene, 2);
            case "ode4j" -> new Ode4jEngine(scene);
            case "bullet" -> new BulletEngine(scene);
            default -> throw new IllegalArgumentException("engine '" + engine
                + "': expected ours, ours-2lanes, ode4j or bullet");
        };
    }
}
