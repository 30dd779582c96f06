package org.hapticsd.device.sim;

/** A hand that holds still at one point, in metres in the device frame. */
public record FixedHandTarget(double xM, double yM, double zM) implements HandTarget {

    public FixedHandTarget {
        if (!Double.isFinite(xM) || !Double.isFinite(yM) || !Double.isFinite(zM)) {
            throw new IllegalArgumentException(
                    "fixed hand target must be finite, got (" + xM + ", " + yM + ", " + zM + ")");
        }
    }

    @Override
    public void targetAt(double tSeconds, double[] positionOut3) {
        positionOut3[0] = xM;
        positionOut3[1] = yM;
        positionOut3[2] = zM;
    }
}
