package org.hapticsd.server.loop;

/**
 * The bits of {@link LoopSnapshot#events}: what happened during one tick. Each bit is set by the loop on the tick
 * where it happened and on no other, so counting set bits over a recording counts the events. The bit positions
 * are part of the recording format (docs/recording.md) and of the {@code simulate} CSV: never renumber them; a new
 * event takes the next free bit.
 *
 * <p>Change events compare the state at the end of this tick with the state at the end of the previous tick, so
 * two changes that cancel within one tick (a stop and a reset drained together) show no change; the command bits
 * still show that something was drained. Before the first tick the loop takes the safety layer as constructed, no
 * contacts, and a device that is not connected, has no fault and a status word of 0: tick 0 therefore carries
 * {@link #DEVICE_CONNECTED} for a device that is connected from the start, which is when the loop first saw it.
 *
 * <p>A bitmask rather than an event list: one int per tick, fixed size in the record, no allocation on the loop
 * thread, and several events of one tick (contact began while the device reported a new status) fit at once.
 */
public final class LoopEvents {
    /** The safety state at the end of this tick differs from the previous tick's. */
    public static final int SAFETY_STATE_CHANGED = 1;
    /** The safety layer's fault changed to a value other than NONE: a fault was raised or replaced this tick. */
    public static final int SAFETY_FAULT_RAISED = 1 << 1;
    /** The device reported itself connected, after reporting disconnected (or on the first tick). */
    public static final int DEVICE_CONNECTED = 1 << 2;
    /** The device reported itself disconnected after reporting connected. */
    public static final int DEVICE_DISCONNECTED = 1 << 3;
    /** The fault the device reports about itself ({@code DeviceHealth.fault}) changed, to a fault or to NONE. */
    public static final int DEVICE_FAULT_CHANGED = 1 << 4;
    /** The device's status word ({@code DeviceState.statusFlags}) changed. */
    public static final int DEVICE_STATUS_CHANGED = 1 << 5;
    /** The tool touches something again: the contact count went from 0 to more than 0. */
    public static final int CONTACT_BEGAN = 1 << 6;
    /** The tool touches nothing any more: the contact count went from more than 0 to 0. */
    public static final int CONTACT_ENDED = 1 << 7;
    /**
     * The previous tick ended past its deadline, as the runner reported through {@link HapticLoop#afterTick}. It is
     * set on the tick after the overrun because the runner only knows once that tick has ended.
     */
    public static final int OVERRUN = 1 << 8;
    /** At least one loop command was drained and carried out at the start of this tick. */
    public static final int COMMAND_APPLIED = 1 << 9;
    /** At least one loop command threw and was dropped this tick ({@link HapticLoop#commandErrors()}). */
    public static final int COMMAND_REJECTED = 1 << 10;
    /** A stage of this tick threw: the device got zero force and the safety layer latched INTERNAL_ERROR. */
    public static final int STAGE_ERROR = 1 << 11;
    /**
     * The loop's scene was replaced this tick (RESET_SCENE, LOAD_SCENE): contacts, bodies and the snapshot's size
     * are the new scene's from this tick on, and the safety layer went back through its start-up gate.
     */
    public static final int SCENE_CHANGED = 1 << 12;
    /** The simulation was paused or resumed this tick ({@link LoopSnapshot#paused} says which). */
    public static final int PAUSE_CHANGED = 1 << 13;
    /**
     * The physics budget's verdict changed: a window of steps ended over budget after one within it, or the reverse
     * ({@link LoopSnapshot#physicsOverBudget} says which; {@link PhysicsBudget}).
     */
    public static final int PHYSICS_BUDGET_CHANGED = 1 << 14;
    /**
     * This tick's physics step dropped candidate pairs or contact points its contact budget could not hold
     * ({@link LoopSnapshot#droppedPairs}, {@link LoopSnapshot#droppedPoints}).
     */
    public static final int CONTACTS_DROPPED = 1 << 15;
    /**
     * An impact transient adds force this tick (the tool struck a surface whose material plays transients;
     * {@link LoopSnapshot#transientForceN}): every tick of the pulse carries it.
     */
    public static final int IMPACT_TRANSIENT = 1 << 16;
    /**
     * An impulse collision began this tick: the tool's impact transient or an IMPULSE-mode collision between bodies
     * ({@link LoopSnapshot#impulseCollisions}).
     */
    public static final int IMPULSE_COLLISION = 1 << 17;
    /**
     * The safety layer's thermal limit began or stopped lowering the force this tick: the motors' modelled heat
     * passed the point where the device's peak force is no longer allowed, or cooled back below it
     * ({@link LoopSnapshot#thermalLimited} says which, {@link LoopSnapshot#motorHeat} how hot).
     */
    public static final int THERMAL_LIMIT_CHANGED = 1 << 18;

    /**
     * This tick's physics step was dropped: the machine ran it so slow that it would have ended past the next
     * deadline ({@link LoopSnapshot#droppedSteps} counts them); the bodies stood still for the tick and the force held.
     */
    public static final int PHYSICS_STEP_DROPPED = 1 << 19;

    /**
     * The tool took or let go of a body or a deformable body's node this tick: a grab's button went down within reach
     * of something, or came up while holding it ({@code render.ToolGrasps}).
     */
    public static final int GRAB_CHANGED = 1 << 20;

    /** Number of defined bits; bits from this one up are never set. */
    public static final int COUNT = 21;

    private static final String[] NAMES = {
        "SAFETY_STATE_CHANGED", "SAFETY_FAULT_RAISED", "DEVICE_CONNECTED", "DEVICE_DISCONNECTED",
        "DEVICE_FAULT_CHANGED", "DEVICE_STATUS_CHANGED", "CONTACT_BEGAN", "CONTACT_ENDED", "OVERRUN",
        "COMMAND_APPLIED", "COMMAND_REJECTED", "STAGE_ERROR", "SCENE_CHANGED", "PAUSE_CHANGED",
        "PHYSICS_BUDGET_CHANGED", "CONTACTS_DROPPED", "IMPACT_TRANSIENT", "IMPULSE_COLLISION",
        "THERMAL_LIMIT_CHANGED", "PHYSICS_STEP_DROPPED", "GRAB_CHANGED",
    };

    private LoopEvents() {
    }

    /** The name of bit number {@code index} (0 to {@link #COUNT} − 1), as written in CSVs and summaries. */
    public static String name(int index) {
        return NAMES[index];
    }

    /**
     * Appends the names of the bits set in {@code events}, lowest bit first, separated by {@code |}; nothing when
     * no bit is set. A character that cannot occur in a name and needs no quoting in CSV.
     */
    public static StringBuilder appendNames(int events, StringBuilder dest) {
        boolean first = true;
        for (int i = 0; i < COUNT; i++) {
            if ((events & (1 << i)) != 0) {
                if (!first) {
                    dest.append('|');
                }
                dest.append(NAMES[i]);
                first = false;
            }
        }
        return dest;
    }
}
