package org.hapticsd.server.scene;

/** The haptic tool: a sphere that follows the mapped device position, or a proxy of it. */
public final class ToolSpec {

    /** How the tool renders the static and kinematic bodies. */
    public enum Rendering {
        /** The tool sphere's own penalty contacts, at the device position. */
        CONTACT,
        /** A proxy that the surfaces stop, joined to the device position by the contact spring. */
        PROXY,
        /** A dynamic proxy that every body stops or is pushed by, joined to the device by a virtual coupling. */
        COUPLING
    }

    private String name = "tool";
    private double radiusM = 0.005;
    private Rendering rendering = Rendering.CONTACT;
    private boolean forceShading;
    private boolean passivityControl;
    private double creaseAngleDeg = 30.0;
    private CouplingSpec coupling;

    public void setName(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        // As a body's: contactModes entries name it, and messages quote it (a newline in it split them, a tester).
        if (!value.matches("[A-Za-z][A-Za-z0-9_-]*")) {
            throw new IllegalArgumentException("name must start with a letter and contain only letters, digits, "
                + "'_' and '-', got '" + value.replace("\n", "\\n") + "'");
        }
        this.name = value;
    }

    public void setRadiusM(double value) {
        this.radiusM = Check.size("radiusM", value);
    }

    public void setRendering(String value) {
        // Keywords are case-insensitive, as every keyword of a scene file.
        if ("contact".equalsIgnoreCase(value)) {
            this.rendering = Rendering.CONTACT;
        } else if ("proxy".equalsIgnoreCase(value)) {
            this.rendering = Rendering.PROXY;
        } else if ("coupling".equalsIgnoreCase(value)) {
            this.rendering = Rendering.COUPLING;
        } else {
            throw new IllegalArgumentException("rendering must be contact, proxy or coupling, got "
                + (value == null ? "null" : "'" + value.replace("\n", "\\n") + "'"));
        }
    }

    /** Force shading on meshes, for a tool rendered by proxy. */
    public void setForceShading(boolean value) {
        this.forceShading = value;
    }

    /** Faces meeting at a larger angle than this keep their edge sharp under force shading. */
    public void setCreaseAngleDeg(double value) {
        if (!(value > 0.0 && value < 180.0)) {
            throw new IllegalArgumentException("creaseAngleDeg must be > 0 and < 180, got " + value);
        }
        this.creaseAngleDeg = value;
    }

    /** The virtual coupling's spring, damper and proxy mass, for a tool rendered by coupling. */
    public void setCoupling(CouplingSpec value) {
        this.coupling = value;
    }

    /** The coupling as written, or null when the file has none (then {@link #couplingOrDefaults()}). */
    public CouplingSpec coupling() {
        return coupling;
    }

    /** The coupling as written, or its defaults. */
    public CouplingSpec couplingOrDefaults() {
        return coupling != null ? coupling : new CouplingSpec();
    }

    /** A time-domain passivity observer and controller on the rendered force. */
    public void setPassivityControl(boolean value) {
        this.passivityControl = value;
    }

    public boolean passivityControl() {
        return passivityControl;
    }

    public boolean forceShading() {
        return forceShading;
    }

    public double creaseAngleDeg() {
        return creaseAngleDeg;
    }

    public Rendering rendering() {
        return rendering;
    }

    public String name() {
        return name;
    }

    public double radiusM() {
        return radiusM;
    }
}
