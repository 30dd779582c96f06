package org.hapticsd.server.render;

import org.joml.Vector3d;
import org.joml.Vector3dc;

/**
 * A guidance virtual fixture (Rosenberg, 1993; Abbott, Marayong and Okamura, 2007): a spring and damper that pull the
 * hand onto a point, a line or a plane and leave it free along the line or in the plane. With {@code e} the hand's
 * offset from the fixture (the whole offset from a point; the part across a line; the part along a plane's normal)
 * and {@code v_e} the same part of its velocity, {@code F = −k·e − b·v_e}. Passive: a spring and a damper.
 *
 * <p>Loop thread; allocates nothing after construction.
 */
public final class Guide implements HapticEffect {
    /** What the hand is pulled onto. */
    public enum Kind { POINT, LINE, PLANE }

    private final Kind kind;
    private final Vector3d pointM;
    /** The line's direction, or the plane's normal; unit. Unused for a point. */
    private final Vector3d axis;
    private final double stiffnessNpm;
    private final double dampingNspm;
    private final Vector3d offset = new Vector3d();
    private final Vector3d across = new Vector3d();

    /**
     * @param axis the line's direction or the plane's normal (normalised here; ignored for a point)
     * @throws IllegalArgumentException for a non-finite point, a zero or non-finite axis of a line or plane, or a
     *                                  spring or damper that is not finite and {@code >= 0}
     */
    public Guide(Kind kind, Vector3dc pointM, Vector3dc axis, double stiffnessNpm, double dampingNspm) {
        if (!pointM.isFinite()) {
            throw new IllegalArgumentException("the guide's point must be finite");
        }
        if (kind != Kind.POINT && !(axis.isFinite() && axis.length() > 0.0)) {
            throw new IllegalArgumentException("the guide's " + (kind == Kind.LINE ? "direction" : "normal")
                + " must be a finite, non-zero vector");
        }
        if (!(stiffnessNpm >= 0.0 && Double.isFinite(stiffnessNpm) && dampingNspm >= 0.0
                && Double.isFinite(dampingNspm))) {
            throw new IllegalArgumentException("the guide's stiffness and damping must be finite and >= 0");
        }
        this.kind = kind;
        this.pointM = new Vector3d(pointM);
        this.axis = kind == Kind.POINT ? new Vector3d() : new Vector3d(axis).normalize();
        this.stiffnessNpm = stiffnessNpm;
        this.dampingNspm = dampingNspm;
    }

    public double stiffnessNpm() {
        return stiffnessNpm;
    }

    public double dampingNspm() {
        return dampingNspm;
    }

    /** Adds the guide's force on the hand at {@code positionM} moving at {@code velocityMps} to {@code forceN}. */
    public Vector3d addTo(Vector3dc positionM, Vector3dc velocityMps, Vector3d forceN) {
        across(positionM.sub(pointM, offset));
        forceN.fma(-stiffnessNpm, offset);
        across(offset.set(velocityMps));
        return forceN.fma(-dampingNspm, offset);
    }

    /** The guide's force on the hand. */
    @Override
    public Vector3d addTo(RenderContext ctx, Vector3d forceN) {
        return addTo(ctx.handM(), ctx.handMps(), forceN);
    }

    /** {@code v} becomes its part the guide pulls back: all of it (point), across the line, along the normal. */
    private void across(Vector3d v) {
        switch (kind) {
            case POINT -> { }
            case LINE -> v.sub(across.set(axis).mul(axis.dot(v)));
            case PLANE -> {
                double along = axis.dot(v);
                v.set(axis).mul(along);
            }
            default -> throw new IllegalStateException(kind.name());
        }
    }
}
