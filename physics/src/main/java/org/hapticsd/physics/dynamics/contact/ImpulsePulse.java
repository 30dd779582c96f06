package org.hapticsd.physics.dynamics.contact;

import org.joml.Matrix3d;
import org.joml.Vector3d;

/**
 * One collision of {@link ImpulseWaveformModel} in progress: the pair, the collision point and frame, the collision
 * matrix frozen at its onset, the waveform it plays and what it has delivered. Preallocated in a pool and reused.
 */
final class ImpulsePulse {
    static final int COMPRESSION = 0;
    static final int RESTITUTION = 1;
    static final int DONE = 2;

    int bodyA;
    int bodyB;
    boolean dynamicA;
    boolean dynamicB;
    double inverseMassA;
    double inverseMassB;
    /** Collision point minus each body's centre of mass at the onset, m. */
    final Vector3d rA = new Vector3d();
    final Vector3d rB = new Vector3d();
    /** The collision point now, m, and B's lever arm to it: see ImpulseWaveformModel.play. */
    final Vector3d pointM = new Vector3d();
    final Vector3d rBNow = new Vector3d();
    /** Collision frame: {@code n} from B toward A, {@code t1} the sliding direction at the onset, {@code t2 = n × t1}. */
    final Vector3d n = new Vector3d();
    final Vector3d t1 = new Vector3d();
    final Vector3d t2 = new Vector3d();
    /** The bodies' inverse inertia at the onset (zero for a static or kinematic body). */
    final Matrix3d inverseInertiaA = new Matrix3d();
    final Matrix3d inverseInertiaB = new Matrix3d();
    /**
     * The collision matrix {@code K = (1/m₁ + 1/m₂)·I − r̃₁J₁⁻¹r̃₁ − r̃₂J₂⁻¹r̃₂} (source 000 (3), corrected) in the
     * frame (t1, t2, n): {@code Δu = K·op}. Symmetric.
     */
    double k11;
    double k12;
    double k13;
    double k22;
    double k23;
    double k33;

    double elasticity;
    double staticFriction;
    double dynamicFriction;
    /** The impulse correlation ratio {@code α_j} of the pair (source 000 §4.2). */
    double correlationRatio;

    /** The impulse the waveform was sized for, {@code IP_z}, N·s, and its height {@code H}, N, and duration, s. */
    double impulseNs;
    double heightN;
    double durationS;
    double exponent;
    double totalArea;
    double dtS;
    int samples;
    /** The largest sample of the waveform, N·s: the rate an unfinished collision continues at. */
    double peakSampleNs;

    int phase;
    int sample;
    /** The waveform's own samples delivered so far, N·s (what scales the rest after the compression). */
    double nominalDeliveredNs;
    /** The normal impulse of the compression, once it has ended, and the total the collision delivers, N·s. */
    double compressionNs;
    double targetNs;
    double restitutionScale;
    /** The internal impulse {@code IP} on A, in the frame (t1, t2, n), N·s. */
    double ipT1;
    double ipT2;
    double ipN;
    /** The last sample's impulse on A, frame (t1, t2, n), N·s: the force it is reported as. */
    double opT1;
    double opT2;
    double opN;
    /** This step's first contact point of the pair, or −1 when the pair has none (separating during restitution). */
    int point;
}
