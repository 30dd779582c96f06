package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * {@code tool.rendering: coupling}: the tool body is a dynamic proxy joined to the hand by a {@link VirtualCoupling};
 * the step moves it, and the hand feels the coupling's pull.
 */
public final class VirtualCouplingRenderer implements ForceRenderer {
    private final VirtualCoupling coupling;

    public VirtualCouplingRenderer(VirtualCoupling coupling) {
        this.coupling = coupling;
    }

    /** The coupling, for its checks and a stream client's softening. */
    @Override
    public VirtualCoupling coupling() {
        return coupling;
    }

    @Override
    public void beforeStep(RenderContext ctx) {
        coupling.beforeStep(ctx.world(), ctx.handM(), ctx.handMps(), ctx.connected());
    }

    /** Where the step left the proxy (paused or not). */
    @Override
    public Vector3d toolState(RenderContext ctx, Vector3d positionM, Vector3d velocityMps) {
        ctx.world().bodyLinearVelocity(ctx.toolBody(), velocityMps);
        return ctx.world().bodyPosition(ctx.toolBody(), positionM);
    }

    @Override
    public Vector3d afterStep(RenderContext ctx, ImpactTransients transients, Vector3d forceN) {
        return forceN.set(coupling.forceN());
    }
}
