package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * {@code tool.rendering: contact}: the tool body is kinematic and put where the hand is; the hand feels the force of
 * the tool body's contacts with the scene's bodies.
 */
public final class DirectContactRenderer implements ForceRenderer {
    @Override
    public void beforeStep(RenderContext ctx) {
        ctx.world().setToolState(ctx.toolBody(), ctx.handM(), ctx.handMps());
    }

    @Override
    public Vector3d toolState(RenderContext ctx, Vector3d positionM, Vector3d velocityMps) {
        velocityMps.set(ctx.handMps());
        return positionM.set(ctx.handM());
    }

    @Override
    public Vector3d afterStep(RenderContext ctx, ImpactTransients transients, Vector3d forceN) {
        return ctx.world().contactForceOnBody(ctx.toolBody(), forceN);
    }
}
