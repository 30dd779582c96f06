package org.hapticsd.server.net;

/**
 * One name a client may send in SET_PARAMETER now, with its current value and the local limits a value must meet
 * (docs/stream-protocol.md, 4.7): what {@code /api/parameters} lists, so the page can offer only what the current
 * scene has, within what the server would accept. The names and limits are server configuration, not protocol.
 *
 * @param name        as SET_PARAMETER takes it, e.g. {@code contact.stiffnessNpm}
 * @param value       the value now: the scene file's, or the last one a client set that the server accepted
 * @param loaded      the value the current scene (or, for the force scale and the buttons, the server) started with
 * @param min         the lowest value accepted, or the bound above which values are accepted ({@code minIncluded})
 * @param minIncluded whether {@code min} itself is accepted (not for a spring's stiffness, which must stay above 0)
 * @param max         the highest value accepted, included; {@link Double#POSITIVE_INFINITY} when there is none
 * @param wholeNumber only whole numbers are accepted (a button mask)
 * @param limits      why the limits are what they are, for people
 */
public record SettableParameter(String name, double value, double loaded, double min, boolean minIncluded,
                                double max, boolean wholeNumber, String limits) {

    /**
     * The unit the name carries, as the project spells units in names ({@code Npm} newtons per metre, {@code Nspm}
     * newton-seconds per metre, {@code M} metres, {@code N} newtons, {@code Hz}); empty for a pure number.
     */
    public String unit() {
        String[][] suffixes = {{"Nspm", "N·s/m"}, {"Npm", "N/m"}, {"Hz", "Hz"}, {"M", "m"}, {"N", "N"}};
        for (String[] suffix : suffixes) {
            if (name.endsWith(suffix[0])) {
                return suffix[1];
            }
        }
        return "";
    }
}
