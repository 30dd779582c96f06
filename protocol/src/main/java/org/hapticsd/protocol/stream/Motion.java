package org.hapticsd.protocol.stream;

/** How a body moves (SCENE body field {@code motion}). */
public enum Motion {
    /** Never moves; its SCENE pose is its pose, and STATE need not repeat it. */
    STATIC(0),
    /** Moved by the server along a prescribed path, not by forces. */
    KINEMATIC(1),
    /** Moved by the physics. */
    DYNAMIC(2);

    private final int code;

    Motion(int code) {
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** The motion with this code, or null. */
    public static Motion fromCode(int code) {
        for (Motion m : values()) {
            if (m.code == code) {
                return m;
            }
        }
        return null;
    }
}
