package org.hapticsd.physics;

import org.hapticsd.physics.dynamics.SolidInertia;
import org.joml.Matrix3d;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * The tests' pile: a floor, four walls of a 0.5 m box (inside {@link #HALF_INSIDE_M} each side of the centre), and
 * {@link #PER_SIDE} × {@link #PER_SIDE} × {@link #LAYERS} spheres in layers 12 cm apart, each grid shifted by 1 cm,
 * dropped from just above the floor; restitution 0, friction 0.5. The floor is body 0, the walls 1 to 4.
 */
final class BoxPile {

    static final int PER_SIDE = 7;
    static final int LAYERS = 4;
    static final int SPHERES = PER_SIDE * PER_SIDE * LAYERS;
    static final int STATICS = 5;
    static final double HALF_INSIDE_M = 0.25;

    private BoxPile() {
    }

    static PhysicsWorld build(ContactSettings settings, double radiusM, double massKg) {
        PhysicsWorld world = new PhysicsWorld(settings);
        world.setGravity(new Vector3d(0.0, 0.0, -9.81));
        Material material = new Material(0.0, 0.5, 0.5);
        Quaterniond identity = new Quaterniond();
        world.addStaticBody("floor", new PlaneShape(new Vector3d(0.0, 0.0, 1.0)), new Vector3d(), identity, material);
        double wallHalfM = 0.05;
        for (int side = 0; side < 4; side++) {
            double offsetM = HALF_INSIDE_M + wallHalfM;
            double x = side == 0 ? offsetM : side == 1 ? -offsetM : 0.0;
            double y = side == 2 ? offsetM : side == 3 ? -offsetM : 0.0;
            BoxShape wall = side < 2 ? new BoxShape(wallHalfM, HALF_INSIDE_M + 2 * wallHalfM, 0.5)
                    : new BoxShape(HALF_INSIDE_M + 2 * wallHalfM, wallHalfM, 0.5);
            world.addStaticBody("wall" + side, wall, new Vector3d(x, y, 0.5), identity, material);
        }
        Matrix3d inertia = SolidInertia.sphere(massKg, radiusM, new Matrix3d());
        double pitchM = 0.065;
        for (int layer = 0; layer < LAYERS; layer++) {
            double shiftM = (layer % 2) * 0.01;
            for (int i = 0; i < PER_SIDE; i++) {
                for (int j = 0; j < PER_SIDE; j++) {
                    Vector3d positionM = new Vector3d((i - 3) * pitchM + shiftM, (j - 3) * pitchM - shiftM,
                            radiusM + 0.001 + layer * 0.12);
                    world.addDynamicBody("s" + layer + "_" + i + "_" + j, new SphereShape(radiusM), positionM,
                            identity, massKg, inertia, material);
                }
            }
        }
        world.setContactBudget(ContactBudget.forScene(world.bodyCount(), STATICS, 0));
        return world;
    }
}
