package org.hapticsd.physics;

import java.util.function.Supplier;

import org.hapticsd.physics.dynamics.contact.ContactModel;
import org.hapticsd.physics.dynamics.contact.ImpulseWaveformModel;
import org.hapticsd.physics.dynamics.contact.LcpContactModel;
import org.hapticsd.physics.dynamics.contact.PenaltyContactModel;

/**
 * How contacts between a pair of bodies are detected and resolved (Springhead's {@code PHSceneDesc::ContactMode},
 * users' manual §7.7, seed 002).
 *
 * <p>Set per pair, per body, per group or for the whole scene; see {@link PhysicsWorld#setPairContactMode} for the
 * precedence. Each mode other than {@link #NONE} names the constructor of its contact model
 * ({@link ContactModel}), and every world makes one of each: a further mode is a new constant here and its model's
 * files in {@code org.hapticsd.physics.dynamics.contact}. The stages call the models in the order of the
 * constants, which are only ever appended.
 */
public enum ContactMode {
    /** No detection and no force: the two bodies pass through each other. */
    NONE(null),
    /** Constraint method: contact impulses from the LCP of source 003, solved by projected Gauss–Seidel. */
    LCP(LcpContactModel::new),
    /** Penalty method: a spring–damper force from the depth and its rate, with spring–stick Coulomb friction. */
    PENALTY(PenaltyContactModel::new),
    /**
     * Impulse waveforms (source 000): a collision is an artificial impulse pulse played over a real duration, with
     * Coulomb friction per sample; resting contacts are constraint rows.
     */
    IMPULSE(ImpulseWaveformModel::new);

    private static final ContactMode[] BY_ORDINAL = values();

    private final Supplier<ContactModel> model;

    ContactMode(Supplier<ContactModel> model) {
        this.model = model;
    }

    /** A new model for this mode's points; null for {@link #NONE}, which has none. */
    ContactModel newModel() {
        return model == null ? null : model.get();
    }

    /** The mode with this ordinal, without cloning {@code values()}. */
    public static ContactMode ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** Number of modes. */
    public static int count() {
        return BY_ORDINAL.length;
    }
}
