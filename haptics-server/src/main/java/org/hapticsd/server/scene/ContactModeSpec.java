package org.hapticsd.server.scene;

import java.util.List;
import java.util.Locale;
import org.hapticsd.physics.ContactMode;

/**
 * One override of the contact mode: for a pair of bodies ({@code pair: [A, B]}), for one body against all others
 * ({@code body: A}), or for all pairs within a group ({@code group: G}). Exactly one of the three is given. An
 * IMPULSE pair may also give its impulse correlation ratio {@code α_j} (source 000 §4.2).
 */
public final class ContactModeSpec extends Located {
    private List<String> pair;
    private String body;
    private String group;
    private ContactMode mode;
    /** α_j of an IMPULSE pair (source 000 §4.2); NaN: not given (1). */
    private double correlationRatio = Double.NaN;

    public void setPair(List<String> value) {
        if (value == null || value.size() != 2 || value.get(0) == null || value.get(1) == null) {
            throw new IllegalArgumentException("pair must name exactly two bodies, [A, B]");
        }
        if (value.get(0).equals(value.get(1))) {
            throw new IllegalArgumentException("pair names '" + value.get(0) + "' twice: a pair is two different "
                + "bodies (to set one body against every other, use body: " + value.get(0) + ")");
        }
        this.pair = List.copyOf(value);
    }

    public void setBody(String value) {
        this.body = value;
    }

    public void setGroup(String value) {
        this.group = value;
    }

    public void setMode(String value) {
        this.mode = parseMode("mode", value);
    }

    public void setCorrelationRatio(double value) {
        if (!(value > 0.0 && value <= 1.0)) {
            throw new IllegalArgumentException("correlationRatio must be in (0, 1], got " + value);
        }
        this.correlationRatio = value;
    }

    static ContactMode parseMode(String field, String value) {
        try {
            return ContactMode.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(field + " must be " + MODE_NAMES + ", got '" + value + "'");
        }
    }

    /** "none, lcp, penalty or impulse": every mode, as a scene file spells it. */
    static final String MODE_NAMES = modeNames();

    private static String modeNames() {
        StringBuilder names = new StringBuilder();
        ContactMode[] all = ContactMode.values();
        for (int i = 0; i < all.length; i++) {
            names.append(i == 0 ? "" : i == all.length - 1 ? " or " : ", ").append(all[i].name().toLowerCase(Locale.ROOT));
        }
        return names.toString();
    }

    /** α_j for an IMPULSE pair, NaN when not given (the engine's 1). */
    public double correlationRatio() {
        return correlationRatio;
    }

    public List<String> pair() {
        return pair;
    }

    public String body() {
        return body;
    }

    public String group() {
        return group;
    }

    public ContactMode mode() {
        return mode;
    }

    /** The problem with this entry as a whole, or null. */
    String problem() {
        int given = (pair != null ? 1 : 0) + (body != null ? 1 : 0) + (group != null ? 1 : 0);
        if (given != 1) {
            return "give exactly one of pair, body or group";
        }
        if (mode == null) {
            return "mode is missing (" + MODE_NAMES + ")";
        }
        if (!Double.isNaN(correlationRatio) && (pair == null || mode != ContactMode.IMPULSE)) {
            return "correlationRatio is the impulse correlation ratio of one IMPULSE pair: give it with pair and "
                + "mode impulse";
        }
        return null;
    }
}
