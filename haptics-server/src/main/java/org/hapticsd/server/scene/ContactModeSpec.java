package org.hapticsd.server.scene;

import java.util.List;
import java.util.Locale;
import org.hapticsd.physics.ContactMode;

/**
 * One override of the contact mode: for a pair of bodies ({@code pair: [A, B]}), for one body against all others
 * ({@code body: A}), or for all pairs within a group ({@code group: G}). Exactly one of the three is given.
 */
public final class ContactModeSpec extends Located {
    private List<String> pair;
    private String body;
    private String group;
    private ContactMode mode;

    public void setPair(List<String> value) {
        if (value == null || value.size() != 2 || value.get(0) == null || value.get(1) == null) {
            throw new IllegalArgumentException("pair must name exactly two bodies, [A, B]");
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

    static ContactMode parseMode(String field, String value) {
        try {
            return ContactMode.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(field + " must be none, lcp or penalty, got '" + value + "'");
        }
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
        return mode == null ? "mode is missing (none, lcp or penalty)" : null;
    }
}
