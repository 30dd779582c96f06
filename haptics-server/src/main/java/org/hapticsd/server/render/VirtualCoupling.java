package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;
import org.joml.Quaterniond;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * The virtual coupling of Colgate, Stanley and Brown (1995): the tool is a dynamic proxy body in the world, a sphere
 * with its rotation locked, and a spring and damper join it to the device position. Each tick, before the step, the
 * proxy is pushed with {@code F_c = k·(x_hand − x_proxy) + b·(v_hand − v_proxy)} (and held up against gravity: the
 * proxy is weightless), and the hand feels {@code −F_c}: exactly the opposite of what the proxy got, so momentum
 * passes from the hand through the proxy to the bodies it meets (Newton's third law). Every body stops the proxy or
 * is pushed by it through the world's own contacts, static, kinematic and dynamic alike, and the hand never feels a
 * stiffness beyond {@code k} whatever the proxy meets (Adams and Hannaford 1999): the coupling is the one spring the
 * passivity and rating checks judge.
 *
 * <p>Explicit, like the engine's other applied forces: stable while {@code k·Δt² + 2·b·Δt < 4·m} with {@code m}
 * the proxy's mass and {@code k}, {@code b} everything that pulls on it (the scene builder checks the sum). At the
 * first step, and at the first step after the device was away, the proxy is put where the hand is, moving with it,
 * so a coupling never starts stretched (a scene reset or a newly loaded scene is a new coupling). After a pause it is
 * where it was, and the safety layer's start-up gate holds the force back until the coupling is near rest again.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class VirtualCoupling {
    private final int proxyBody;
    private double stiffnessNpm;
    private double dampingNspm;
    private final double massKg;
    private boolean placed;
    /** The force on the hand this tick, {@code −F_c}. */
    private final Vector3d handForceN = new Vector3d();
    private final Vector3d onProxyN = new Vector3d();
    private final Vector3d proxyM = new Vector3d();
    private final Vector3d proxyMps = new Vector3d();
    private final Vector3d gravityMps2 = new Vector3d();
    /** Zero, for a velocity or a spin set to nothing. */
    private final Vector3d noSpinRadps = new Vector3d();
    private final Quaterniond orientation = new Quaterniond();

    /**
     * @param proxyBody the proxy, a dynamic body of mass {@code massKg} whose rotation is locked
     * @throws IllegalArgumentException for a spring or damper that is not finite and {@code >= 0}, or a mass that is
     *                                  not finite and {@code > 0}
     */
    public VirtualCoupling(int proxyBody, double stiffnessNpm, double dampingNspm, double massKg) {
        if (!(massKg > 0.0 && Double.isFinite(massKg))) {
            throw new IllegalArgumentException("a coupling's proxy needs a finite mass > 0, got " + massKg);
        }
        set(stiffnessNpm, dampingNspm);
        this.proxyBody = proxyBody;
        this.massKg = massKg;
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    public double massKg() {
        return massKg;
    }

    /**
     * Softens the coupling (a remote user's SET_PARAMETER): the caller keeps it within what the scene was built with,
     * which the load check passed, and a softer spring and damper only relax {@code k·Δt² + 2·b·Δt < 4·m}. Loop
     * thread.
     *
     * @throws IllegalArgumentException for a spring or damper that is not finite and {@code >= 0}
     */
    public void set(double stiffnessNpm, double dampingNspm) {
        if (!(stiffnessNpm >= 0.0 && Double.isFinite(stiffnessNpm) && dampingNspm >= 0.0
                && Double.isFinite(dampingNspm))) {
            throw new IllegalArgumentException("a coupling needs a finite stiffness and damping >= 0, got "
                + stiffnessNpm + " N/m and " + dampingNspm + " N·s/m");
        }
        this.stiffnessNpm = stiffnessNpm;
        this.dampingNspm = dampingNspm;
    }

    /**
     * Before the step: the coupling's force on the proxy for this step, from the hand and the proxy as they are
     * now, added to the proxy with the force that cancels its weight. A proxy not yet placed is put at the hand,
     * moving with it, and the coupling is unstretched. While the device is not connected its hand is not known:
     * the proxy stops and floats where it is, the hand gets nothing, and the proxy is placed at the hand again when the
     * device is back (it may come back anywhere: its stylus moved while it was away, or it is another device; a proxy
     * left where it was would be pulled across the scene).
     */
    public void beforeStep(PhysicsWorld world, Vector3dc handM, Vector3dc handMps, boolean connected) {
        world.gravity(gravityMps2);
        if (!connected) {
            if (placed) {
                // Stopped where the hand left it, rather than drifting into the scene's bodies meanwhile.
                world.setBodyVelocity(proxyBody, noSpinRadps, noSpinRadps);
                placed = false;
            }
            handForceN.zero();
            world.bodyPosition(proxyBody, proxyM);
            world.applyForce(proxyBody, onProxyN.set(gravityMps2).mul(-massKg), proxyM);
            return;
        }
        if (!placed) {
            world.setBodyPose(proxyBody, handM, world.bodyOrientation(proxyBody, orientation));
            world.setBodyVelocity(proxyBody, handMps, noSpinRadps);
            placed = true;
        }
        world.bodyPosition(proxyBody, proxyM);
        world.bodyLinearVelocity(proxyBody, proxyMps);
        handM.sub(proxyM, onProxyN).mul(stiffnessNpm);
        onProxyN.fma(dampingNspm, handMps).fma(-dampingNspm, proxyMps);
        handForceN.set(onProxyN).negate();
        onProxyN.fma(-massKg, gravityMps2);
        world.applyForce(proxyBody, onProxyN, proxyM);
    }

    /** The force on the hand from the last {@link #beforeStep}, scene frame, N: {@code −F_c}. */
    public Vector3dc forceN() {
        return handForceN;
    }
}
