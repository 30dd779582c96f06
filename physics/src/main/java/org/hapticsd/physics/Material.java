package org.hapticsd.physics;

/**
 * Surface properties of a body's shape (Springhead {@code CDShapeIf::SetElasticity}, {@code SetStaticFriction},
 * {@code SetDynamicFriction}, seed 002). A contact uses the mean of its two bodies' values, as Springhead does.
 *
 * @param elasticity coefficient of restitution {@code e} in {@code [0, 1]}: in the collision model the normal
 *     velocity after an impact is {@code −e} times the one before
 * @param staticFriction {@code μ0 >= 0}, bounding friction while the sliding speed is at most the friction
 *     threshold {@link ContactSettings#frictionThresholdMps()}
 * @param dynamicFriction {@code μ >= 0}, bounding friction above that speed
 */
public record Material(double elasticity, double staticFriction, double dynamicFriction) {

    /**
     * Frictionless and perfectly inelastic: the surface of every body that is not given a material. It keeps a
     * haptic wall exactly {@code k·d} along its normal, as before friction existed; give walls a material to feel
     * friction.
     */
    public static final Material DEFAULT = new Material(0.0, 0.0, 0.0);

    public Material {
        if (!(elasticity >= 0.0 && elasticity <= 1.0)) {
            throw new IllegalArgumentException("elasticity must be in [0, 1], was " + elasticity);
        }
        requireFriction("staticFriction", staticFriction);
        requireFriction("dynamicFriction", dynamicFriction);
    }

    private static void requireFriction(String field, double mu) {
        if (!(mu >= 0.0) || !Double.isFinite(mu)) {
            throw new IllegalArgumentException(field + " must be finite and >= 0, was " + mu);
        }
    }
}
