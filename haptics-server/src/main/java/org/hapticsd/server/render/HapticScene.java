package org.hapticsd.server.render;

import org.hapticsd.physics.PhysicsWorld;

/**
 * A physics world with the body that stands for the device's tool, the mapping from device to scene, the impact
 * transients played when the tool strikes, and, when the scene renders by proxy, the proxy, or by coupling, the
 * coupling; a force field and a guide when the scene has them.
 *
 * @param world      the simulation; owned by the loop once the loop starts
 * @param toolBody   index of the tool body in {@code world}
 * @param mapping    device workspace → scene
 * @param transients the tool's impact transients; owned by the loop with the world
 * @param grasps     what the stylus's buttons grab; owned by the loop with the world
 * @param proxy      the tool's proxy against the static and kinematic bodies ({@code tool.rendering: proxy}), or
 *                   null when the tool's own contacts render them; owned by the loop with the world
 * @param passivity  the passivity observer and controller on the rendered force ({@code tool.passivityControl}),
 *                   or null; owned by the loop with the world
 * @param field      the velocity-dependent force field on the hand ({@code forceField}), or null
 * @param guide      the virtual fixture pulling the hand onto a point, a line or a plane ({@code guide}), or null
 * @param coupling   the virtual coupling to the tool body, a dynamic proxy ({@code tool.rendering: coupling}), or
 *                   null when the tool body is kinematic; owned by the loop with the world
 * @param vibration  the vibration of the bodies whose material has one ({@code material.vibration}), or null when
 *                   none has; owned by the loop with the world
 * @param magnet     the pull of the bodies whose material has a magnet ({@code material.magnet}), or null when none
 *                   has; owned by the loop with the world
 */
public record HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients,
                          ToolGrasps grasps, ProxyRenderer proxy, PassivityController passivity, ForceField field,
                          Guide guide, VirtualCoupling coupling, ContactVibration vibration, SurfaceMagnet magnet) {
    /** A scene whose tool body is kinematic (no coupling) and whose bodies neither vibrate nor pull. */
    public HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients,
                       ToolGrasps grasps, ProxyRenderer proxy, PassivityController passivity, ForceField field,
                       Guide guide) {
        this(world, toolBody, mapping, transients, grasps, proxy, passivity, field, guide, null, null, null);
    }

    /** A scene without a force field or a guide. */
    public HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients,
                       ToolGrasps grasps, ProxyRenderer proxy, PassivityController passivity) {
        this(world, toolBody, mapping, transients, grasps, proxy, passivity, null, null);
    }

    /** A scene without passivity control. */
    public HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients,
                       ToolGrasps grasps, ProxyRenderer proxy) {
        this(world, toolBody, mapping, transients, grasps, proxy, null);
    }

    /** A scene whose tool renders by its contacts. */
    public HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients,
                       ToolGrasps grasps) {
        this(world, toolBody, mapping, transients, grasps, null);
    }

    /** A scene whose tool grabs nothing and renders by its contacts. */
    public HapticScene(PhysicsWorld world, int toolBody, DeviceMapping mapping, ImpactTransients transients) {
        this(world, toolBody, mapping, transients, ToolGrasps.none());
    }
}
