package org.hapticsd.server.scene;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/** A body's collision shape, selected by {@code type}. */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
    @JsonSubTypes.Type(value = ShapeSpec.Sphere.class, name = "sphere"),
    @JsonSubTypes.Type(value = ShapeSpec.Plane.class, name = "plane"),
    @JsonSubTypes.Type(value = ShapeSpec.Box.class, name = "box"),
    @JsonSubTypes.Type(value = ShapeSpec.Capsule.class, name = "capsule"),
    @JsonSubTypes.Type(value = ShapeSpec.Hull.class, name = "hull"),
    @JsonSubTypes.Type(value = ShapeSpec.Mesh.class, name = "mesh")
})
public abstract sealed class ShapeSpec extends Located
    permits ShapeSpec.Sphere, ShapeSpec.Plane, ShapeSpec.Box, ShapeSpec.Capsule, ShapeSpec.Hull, ShapeSpec.Mesh {

    /** Shape names as written in {@code type}, for messages. */
    static final String TYPES = "sphere, plane, box, capsule, hull or mesh";

    /** Checks fields that have no default; returns the name of the first missing one, or null. */
    abstract String missingField();

    /** A sphere of {@code radiusM} centred on the body position. */
    public static final class Sphere extends ShapeSpec {
        private double radiusM = Double.NaN;

        public void setRadiusM(double value) {
            this.radiusM = Check.size("radiusM", value);
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

    /** A capsule along the body's z axis: the points within {@code radiusM} of the segment z = ±halfLengthM. */
    public static final class Capsule extends ShapeSpec {
        private double radiusM = Double.NaN;
        private double halfLengthM = Double.NaN;

        public void setRadiusM(double value) {
            this.radiusM = Check.size("radiusM", value);
        }

        public void setHalfLengthM(double value) {
            Check.nonNegative("halfLengthM", value);
            this.halfLengthM = value == 0.0 ? 0.0 : Check.size("halfLengthM", value);
        }

        public double radiusM() {
            return radiusM;
        }

        public double halfLengthM() {
            return halfLengthM;
        }

        @Override
        String missingField() {
            return Double.isNaN(radiusM) ? "radiusM" : Double.isNaN(halfLengthM) ? "halfLengthM" : null;
        }
    }

    /** The convex hull of {@code points} (body frame, metres). */
    public static final class Hull extends ShapeSpec {
        private double[][] pointsM;

        public void setPoints(double[][] value) {
            if (value == null || value.length < 4) {
                throw new IllegalArgumentException("points must list at least 4 points [x, y, z], got "
                    + (value == null ? 0 : value.length));
            }
            double[][] copy = new double[value.length][];
            for (int i = 0; i < value.length; i++) {
                copy[i] = Check.vector3("points[" + i + "]", value[i]);
            }
            this.pointsM = copy;
        }

        public double[][] pointsM() {
            return pointsM;
        }

        @Override
        String missingField() {
            return pointsM == null ? "points" : null;
        }
    }

    /** A triangle mesh read from an OBJ or STL file, relative to the scene file's folder. Static bodies only. */
    public static final class Mesh extends ShapeSpec {
        private String file;
        private double scale = 1.0;

        public void setFile(String value) {
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("file must name an .obj or .stl file");
            }
            this.file = value;
        }

        /** Multiplies every vertex, e.g. 0.001 for a file in millimetres. */
        public void setScale(double value) {
            this.scale = Check.size("scale", value);
        }

        public String file() {
            return file;
        }

        public double scale() {
            return scale;
        }

        @Override
        String missingField() {
            return file == null ? "file" : null;
        }
    }
}
