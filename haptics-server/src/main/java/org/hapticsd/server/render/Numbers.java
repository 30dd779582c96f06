package org.hapticsd.server.render;

import java.util.Locale;

/** Numbers in the one-line warnings and refusals a scene earns, written the way a scene author would write them. */
public final class Numbers {

    private Numbers() {
    }

    /** Four significant digits, without trailing zeros or a trailing point (1000, 0.7, 0.001, 2.5e+09). */
    public static String significant(double value) {
        String s = String.format(Locale.ROOT, "%.4g", value);
        if (s.contains("e")) {
            return s.replaceFirst("\\.?0+e", "e");
        }
        return s.contains(".") ? s.replaceFirst("\\.?0+$", "") : s;
    }
}
