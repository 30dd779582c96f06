package org.hapticsd.server.loop;

/** The fixed stages of one tick, in the order they run. Each is timed into {@link LoopStats}. */
public enum LoopStage {
    READ_DEVICE("read device"),
    MAP_TO_SCENE("map into scene"),
    STEP_PHYSICS("step physics"),
    RENDER_FORCE("render force"),
    SAFETY("safety"),
    WRITE_DEVICE("write device"),
    PUBLISH("publish snapshot");

    /** Cached because {@code values()} returns a fresh clone on every call. */
    public static final LoopStage[] ALL = values();

    private final String label;

    LoopStage(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
