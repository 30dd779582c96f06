package org.hapticsd.server.scene;

import java.util.List;

/** The root of a scene file. Every section is optional; see docs/scenes.md for fields, units and defaults. */
public final class SceneSpec {
    private String name = "scene";
    private int rateHz = 1000;
    private DeviceSpec device = new DeviceSpec();
    private MappingSpec mapping = new MappingSpec();
    private ToolSpec tool = new ToolSpec();
    private ContactSpec contact = new ContactSpec();
    private SafetySpec safety = new SafetySpec();
    private List<BodySpec> bodies = List.of();
    private double[] gravityMps2 = {0.0, 0.0, -9.81};
    private String source = "<scene>";
    private java.nio.file.Path baseDirectory = java.nio.file.Path.of("");
    private List<ContactModeSpec> contactModes = List.of();
    private List<DeformableSpec> deformables = List.of();
    private ForceFieldSpec forceField;
    private GuideSpec guide;

    public void setName(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("name must not be blank");
        }
        // One line of at most 200 characters: it is quoted in messages and log lines, and a tester's name with a
        // newline forged a second "hapticsd: ..." line after a refusal.
        if (value.codePoints().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("name must be one line of text without control characters");
        }
        if (value.length() > 200) {
            throw new IllegalArgumentException("name must be at most 200 characters, got " + value.length());
        }
        this.name = value;
    }

    public void setRateHz(int value) {
        if (value < 250 || value > 4000) {
            throw new IllegalArgumentException("rateHz must be 250..4000, got " + value);
        }
        this.rateHz = value;
    }

    public void setDevice(DeviceSpec value) {
        this.device = value == null ? new DeviceSpec() : value;
    }

    public void setMapping(MappingSpec value) {
        this.mapping = value == null ? new MappingSpec() : value;
    }

    public void setTool(ToolSpec value) {
        this.tool = value == null ? new ToolSpec() : value;
    }

    public void setContact(ContactSpec value) {
        this.contact = value == null ? new ContactSpec() : value;
    }

    public void setSafety(SafetySpec value) {
        this.safety = value == null ? new SafetySpec() : value;
    }

    public void setBodies(List<BodySpec> value) {
        this.bodies = value == null ? List.of() : List.copyOf(value);
    }

    public void setGravity(double[] value) {
        this.gravityMps2 = Check.vector3("gravity", value);
    }

    /** {@code forceField}: a velocity-dependent force on the hand; none when absent. */
    public void setForceField(ForceFieldSpec value) {
        this.forceField = value;
    }

    public ForceFieldSpec forceField() {
        return forceField;
    }

    /** {@code guide}: a virtual fixture pulling the hand onto a point, a line or a plane; none when absent. */
    public void setGuide(GuideSpec value) {
        this.guide = value;
    }

    public GuideSpec guide() {
        return guide;
    }

    public void setDeformables(List<DeformableSpec> value) {
        this.deformables = value == null ? List.of() : List.copyOf(value);
    }

    public List<DeformableSpec> deformables() {
        return deformables;
    }

    public void setContactModes(List<ContactModeSpec> value) {
        this.contactModes = value == null ? List.of() : List.copyOf(value);
    }

    /** Set by the loader: the name used in messages, and the folder that relative mesh files are read from. */
    void origin(String source, java.nio.file.Path baseDirectory) {
        this.source = source;
        this.baseDirectory = baseDirectory;
    }

    String source() {
        return source;
    }

    java.nio.file.Path baseDirectory() {
        return baseDirectory;
    }

    public double[] gravityMps2() {
        return gravityMps2;
    }

    public List<ContactModeSpec> contactModes() {
        return contactModes;
    }

    public String name() {
        return name;
    }

    public int rateHz() {
        return rateHz;
    }

    public DeviceSpec device() {
        return device;
    }

    public MappingSpec mapping() {
        return mapping;
    }

    public ToolSpec tool() {
        return tool;
    }

    public ContactSpec contact() {
        return contact;
    }

    public SafetySpec safety() {
        return safety;
    }

    public List<BodySpec> bodies() {
        return bodies;
    }
}
