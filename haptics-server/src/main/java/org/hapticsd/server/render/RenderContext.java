package org.hapticsd.server.render;

import java.lang.invoke.MethodHandles;
import org.hapticsd.physics.PhysicsWorld;
import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * What a {@link ForceRenderer} and a {@link HapticEffect} read in a tick: the world and its tool body, the hand (the
 * device mapped into the scene, before any proxy takes the tool's place), whether the device is connected, the step
 * and the loop's simulated time. The loop owns one, refills it each tick and rebinds it when the scene changes.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class RenderContext {
    static {
        // The tick names ProxyRenderer (ForceRenderer.proxy()) whether or not the scene renders by proxy, and the JVM
        // loaded the class the first time the tool touched a vibrating or stick-slip body: mid-run, on the loop
        // thread, 0.43–0.52 ms of one render stage (`run` on the default wall with such a material, -Xlog:class+load).
        // Loaded here, when the loop is built, instead.
        try {
            MethodHandles.lookup().ensureInitialized(ProxyRenderer.class);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private PhysicsWorld world;
    private int toolBody;
    private ForceRenderer renderer;
    private final Vector3d handM = new Vector3d();
    private final Vector3d handMps = new Vector3d();
    private boolean connected;
    private double dtS;
    private double timeS;
    private ToolTouches touches = new ToolTouches(0);
    /** Ticks since the context was made, and the tick {@link #touches} was last listed in. */
    private long tick;
    private long touchesTick = -1L;

    /**
     * Binds the context to a scene: its world, the body drawn as the tool, and the renderer that makes its force.
     * Allocates (once per scene).
     */
    public RenderContext bind(PhysicsWorld world, int toolBody, ForceRenderer renderer) {
        this.world = world;
        this.toolBody = toolBody;
        this.renderer = renderer;
        this.touches = new ToolTouches(world.bodyCount());
        this.touchesTick = -1L;
        return this;
    }

    /**
     * This tick's hand, scene frame, and the time.
     *
     * @param connected whether the device is connected (when it is not, its position is not known)
     * @param dtS       the physics step, s
     * @param timeS     the loop's simulated time, s
     */
    public void setHand(Vector3dc positionM, Vector3dc velocityMps, boolean connected, double dtS, double timeS) {
        tick++;
        handM.set(positionM);
        handMps.set(velocityMps);
        this.connected = connected;
        this.dtS = dtS;
        this.timeS = timeS;
    }

    public PhysicsWorld world() {
        return world;
    }

    /** The body drawn as the tool: kinematic for the contact and proxy renderings, the proxy for the coupling. */
    public int toolBody() {
        return toolBody;
    }

    public ForceRenderer renderer() {
        return renderer;
    }

    /** The device's position in the scene, m. */
    public Vector3dc handM() {
        return handM;
    }

    /** The device's velocity in the scene, m/s. */
    public Vector3dc handMps() {
        return handMps;
    }

    public boolean connected() {
        return connected;
    }

    public double dtS() {
        return dtS;
    }

    public double timeS() {
        return timeS;
    }

    /** The bodies the tool touches after this tick's step: listed on the first call of the tick (after the step). */
    ToolTouches touches() {
        if (touchesTick != tick) {
            touches.update(world, toolBody, renderer.proxy());
            touchesTick = tick;
        }
        return touches;
    }
}
