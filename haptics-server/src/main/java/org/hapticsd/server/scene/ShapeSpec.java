package org.hapticsd.server.scene;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** A body's collision shape, selected by {@code type}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ShapeSpec.Sphere.class, name = "sphere"),
    @JsonSubTypes.Type(value = ShapeSpec.Plane.class, name = "plane"),
    @JsonSubTypes.Type(value = ShapeSpec.Box.class, name = "box")
})
public abstract sealed class ShapeSpec extends Located permits ShapeSpec.Sphere, ShapeSpec.Plane, ShapeSpec.Box {

    /** Checks fields that have no default; returns the name of the first missing one, or null. */
    abstract String missingField();

    /** A sphere of {@code radiusM} centred on the body position. */
    public static final class Sphere extends ShapeSpec {
        private double radiusM = Double.NaN;

        public void setRadiusM(double value) {
            this.radiusM = Check.positive("radiusM", value);
        }

        public double radiusM() {
            return radiusM;
        }

        @Override
        String missingField() {
            return Double.isNaN(radiusM) ? "radiusM" : null;
        }
    }

    /** A half-space: the plane through the body position with outward {@code normal} (body frame). */
    public static final class Plane extends ShapeSpec {
        private double[] normal = {0.0, 0.0, 1.0};

        public void setNormal(double[] value) {
            this.normal = Check.direction("normal", value);
        }

        public double[] normal() {
            return normal;
        }

        @Override
        String missingField() {
            return null;
        }
    }

    /** A box with the given half extents along the body's axes. */
    public static final class Box extends ShapeSpec {
        private double[] halfExtentsM;

        public void setHalfExtents(double[] value) {
            double[] v = Check.vector3("halfExtents", value);
            for (int i = 0; i < 3; i++) {
                Check.positive("halfExtents[" + i + "]", v[i]);
            }
            this.halfExtentsM = v;
        }

        public double[] halfExtentsM() {
            return halfExtentsM;
        }

        @Override
        String missingField() {
            return halfExtentsM == null ? "halfExtents" : null;
        }
    }
}
