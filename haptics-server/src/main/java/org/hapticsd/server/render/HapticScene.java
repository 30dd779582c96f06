package org.hapticsd.server.render;

import java.util.Objects;
import org.hapticsd.physics.PhysicsWorld;

/**
 * A physics world made felt (the seam design's §C): the body drawn as the tool, the mapping from device to scene, the
 * renderer that makes the tool's force, the effects added to it, the passivity filter on it, the impact transients
 * played when the tool strikes, and what the stylus's buttons grab. Everything but the mapping is owned by the loop
 * once the loop starts.
 *
 * @param world      the simulation
 * @param toolBody   index of the body drawn as the tool in {@code world}: kinematic, or the coupled proxy
 * @param mapping    device workspace → scene
 * @param renderer   how the tool's force is made ({@code tool.rendering})
 * @param effects    the forces added to the renderer's, in the order they are added: the passive ones before the
 *                   passivity filter, the {@linkplain HapticEffect#active active} ones after it
 * @param passivity  the passivity observer and controller on the rendered force ({@code tool.passivityControl}),
 *                   or null
 * @param transients the tool's impact transients
 * @param grasps     what the stylus's buttons grab
 */
public record HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ForceRenderer renderer,
                          HapticEffect[] effects, PassivityController passivity, ImpactTransients transients,
                          ToolGrasps grasps) {
    public HapticScene {
        Objects.requireNonNull(renderer, "renderer");
        effects = effects.clone();
        for (HapticEffect effect : effects) {
            Objects.requireNonNull(effect, "an effect");
        }
    }

    /** The effects, in order (a copy). */
    @Override
    public HapticEffect[] effects() {
        return effects.clone();
    }

    /** The virtual coupling when the tool renders by coupling, else null. */
    public VirtualCoupling coupling() {
        return renderer.coupling();
    }

    /** The proxy when the tool renders by proxy, else null. */
    public ProxyRenderer proxy() {
        return renderer.proxy();
    }

    /** The scene's first effect of {@code type}, or null when it has none. */
    public <T extends HapticEffect> T effect(Class<T> type) {
        for (HapticEffect effect : effects) {
            if (type.isInstance(effect)) {
                return type.cast(effect);
            }
        }
        return null;
    }
}
