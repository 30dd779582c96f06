package org.hapticsd.server.render;

import org.joml.Vector3d;

/**
 * {@code tool.rendering: proxy}: a god-object ({@link ProxyRenderer}) follows the hand over the static and kinematic
 * bodies, and the tool body, kinematic, is put where the proxy is, so the dynamic bodies meet the proxy. The hand
 * feels the proxy's spring toward it plus the tool body's contacts with the dynamic bodies; a strike of the proxy on a
 * surface plays the surface's impact transient.
 */
public final class GodObjectRenderer implements ForceRenderer {
    private final ProxyRenderer proxy;

    public GodObjectRenderer(ProxyRenderer proxy) {
        this.proxy = proxy;
    }

    @Override
    public void beforeStep(RenderContext ctx) {
        proxy.update(ctx.handM(), ctx.handMps(), ctx.dtS());
        ctx.world().setToolState(ctx.toolBody(), proxy.positionM(), proxy.velocityMps());
    }

    @Override
    public Vector3d toolState(RenderContext ctx, Vector3d positionM, Vector3d velocityMps) {
        velocityMps.set(proxy.velocityMps());
        return positionM.set(proxy.positionM());
    }

    @Override
    public Vector3d afterStep(RenderContext ctx, ImpactTransients transients, Vector3d forceN) {
        ctx.world().contactForceOnBody(ctx.toolBody(), forceN).add(proxy.forceN());
        if (proxy.struck()) {
            transients.strikeByProxy(proxy.touchedBody(), proxy.strikeSpeedMps(), proxy.normal(),
                proxy.contactPointM());
        }
        return forceN;
    }

    @Override
    public ProxyRenderer proxy() {
        return proxy;
    }
}
