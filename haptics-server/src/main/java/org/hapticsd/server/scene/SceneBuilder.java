package org.hapticsd.server.scene;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.hapticsd.device.DeviceInfo;
import org.hapticsd.device.Workspace;
import org.hapticsd.device.sim.FixedHandTarget;
import org.hapticsd.device.sim.HandTarget;
import org.hapticsd.device.sim.SimulatedDeviceConfig;
import org.hapticsd.device.sim.WaypointHandTarget;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.PenaltyContactSettings;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.server.render.DeviceMapping;
import org.hapticsd.server.render.HapticScene;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/** Turns a checked {@link SceneSpec} into the runtime objects of a {@link BuiltScene}. */
public final class SceneBuilder {
    private SceneBuilder() {
    }

    /** Builds the scene; a combination of values the runtime rejects is reported as a {@link SceneException}. */
    public static BuiltScene build(SceneSpec spec) throws SceneException {
        try {
            return buildChecked(spec);
        } catch (IllegalArgumentException e) {
            throw new SceneException("scene '" + spec.name() + "': " + e.getMessage(), e);
        }
    }

    private static BuiltScene buildChecked(SceneSpec spec) {
        PhysicsWorld world = new PhysicsWorld(
            new PenaltyContactSettings(spec.contact().stiffnessNpm(), spec.contact().dampingNspm()));
        List<String> names = new ArrayList<>();
        int[] indices = new int[spec.bodies().size()];
        for (int i = 0; i < indices.length; i++) {
            BodySpec body = spec.bodies().get(i);
            double[] q = body.orientation();
            indices[i] = world.addStaticBody(body.name(), shape(body.shape()), vector(body.positionM()),
                new Quaterniond(q[1], q[2], q[3], q[0]));
            names.add(body.name());
        }
        int tool = world.addTool(spec.tool().name(), spec.tool().radiusM());

        MappingSpec m = spec.mapping();
        double[] r = m.rotation();
        DeviceMapping mapping = new DeviceMapping(vector(m.originM()), new Quaterniond(r[1], r[2], r[3], r[0]),
            m.scale());

        DeviceSpec d = spec.device();
        DeviceInfo info = new DeviceInfo("simulated stylus", 3, Workspace.cube(d.workspaceHalfSizeM()),
            d.maxForceN(), d.maxContinuousForceN(), d.maxStiffnessNpm(), d.dampingNspm());
        double[] p0 = d.initialPositionM();
        SimulatedDeviceConfig device = SimulatedDeviceConfig.defaults()
            .withInfo(info)
            .withMassKg(d.massKg())
            .withDampingNspm(d.dampingNspm())
            .withHandStiffnessNpm(d.hand().stiffnessNpm())
            .withHandDampingNspm(d.hand().dampingNspm())
            .withInitialPositionM(p0[0], p0[1], p0[2]);

        return new BuiltScene(spec.name(), new HapticScene(world, tool, mapping), List.copyOf(names), indices,
            spec.safety().toConfig(), spec.rateHz(), device, handTargets(d.hand()));
    }

    private static Supplier<HandTarget> handTargets(HandSpec hand) {
        if (hand.path().isEmpty()) {
            double[] t = hand.targetM();
            FixedHandTarget fixed = new FixedHandTarget(t[0], t[1], t[2]);
            return () -> fixed;
        }
        List<WaypointHandTarget.Waypoint> waypoints = new ArrayList<>();
        for (WaypointSpec w : hand.path()) {
            double[] p = w.positionM();
            waypoints.add(new WaypointHandTarget.Waypoint(w.tS(), p[0], p[1], p[2]));
        }
        List<WaypointHandTarget.Waypoint> frozen = List.copyOf(waypoints);
        boolean loop = hand.loop();
        new WaypointHandTarget(frozen, loop); // fail at load time, not when a device is created
        return () -> new WaypointHandTarget(frozen, loop);
    }

    private static Shape shape(ShapeSpec spec) {
        if (spec instanceof ShapeSpec.Sphere sphere) {
            return new SphereShape(sphere.radiusM());
        }
        if (spec instanceof ShapeSpec.Plane plane) {
            return new PlaneShape(vector(plane.normal()));
        }
        ShapeSpec.Box box = (ShapeSpec.Box) spec;
        double[] h = box.halfExtentsM();
        return new BoxShape(h[0], h[1], h[2]);
    }

    private static Vector3d vector(double[] xyz) {
        return new Vector3d(xyz[0], xyz[1], xyz[2]);
    }
}
