package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * One way of making the tool's force from the scene (CHAI3D's {@code cGenericForceAlgorithm}; the seam design's §C):
 * {@code tool.rendering} picks it. The loop calls it in this order each tick: {@link #beforeStep} (not while
 * paused), {@link #toolState} for the grasps, the physics step, {@link #toolState} again for the snapshot, then
 * {@link #afterStep} (not while paused). Effects and the passivity filter come after it, in the loop.
 *
 * <p>Loop thread; an implementation allocates nothing after construction.
 */
public interface ForceRenderer {
    /** RENDER_INPUT, before the step: places the tool body at the hand, or moves or pulls it toward the hand. */
    void beforeStep(RenderContext ctx);

    /**
     * Where the tool is drawn and met now, scene frame: the hand, the proxy, or the tool body as the world has it.
     *
     * @return {@code positionM}
     */
    Vector3d toolState(RenderContext ctx, Vector3d positionM, Vector3d velocityMps);

    /**
     * RENDER_FORCE, after the step: writes the force on the hand into {@code forceN}, scene frame. A strike that the
     * world's contacts do not see (the proxy's, on a surface it meets by query) is played on {@code transients}.
     *
     * @return {@code forceN}
     */
    Vector3d afterStep(RenderContext ctx, ImpactTransients transients, Vector3d forceN);

    /** The proxy whose resting contact the world does not hold ({@code tool.rendering: proxy}), or null. */
    default ProxyRenderer proxy() {
        return null;
    }

    /** The coupling to a dynamic proxy ({@code tool.rendering: coupling}), or null. */
    default VirtualCoupling coupling() {
        return null;
    }
}
