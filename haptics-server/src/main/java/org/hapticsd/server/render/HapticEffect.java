package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * A force on the hand beside the renderer's (CHAI3D's {@code cGenericEffect}): a force field, a guide, a magnetic
 * surface, a vibrating one. A passive effect is added with the renderer's force, before the passivity filter, which
 * judges it as the scene's; an {@link #active} one after it, which would damp it away.
 *
 * <p>Loop thread; an implementation allocates nothing after construction.
 */
public interface HapticEffect {
    /**
     * Adds this tick's force on the hand to {@code forceN}, scene frame.
     *
     * @return {@code forceN}
     */
    Vector3d addTo(RenderContext ctx, Vector3d forceN);

    /** Whether the effect puts energy in by design (a vibration), so that it comes after the passivity filter. */
    default boolean active() {
        return false;
    }
}
