package org.hapticsd.server.calibrate;

import java.io.PrintWriter;
import java.util.Locale;

/** Prints a calibration in the form of source 000's tables: Table 2 (the fit), Tables 1 and 3 (errors per body). */
public final class Report {

    private Report() {
    }

    public static void print(CalibrationResult result, PrintWriter out) {
        CollisionData data = result.data();
        int multi = 0;
        for (CollisionData.Event event : data.events()) {
            multi += event.multiPoint() ? 1 : 0;
        }
        out.printf(Locale.ROOT, "calibrate: %d events (%d multi-point), %d contacts, from %s; model %s; "
                + "%d evaluations%n", data.events().size(), multi, data.contactCount(), data.source(),
            result.model().name().toLowerCase(Locale.ROOT), result.evaluations());
        out.println();
        out.println("fitted parameters (source 000 Table 2):");
        out.printf(Locale.ROOT, "  %-16s %12s   %-18s %s%n", "parameter", "value", "range", "");
        for (CalibrationResult.Fitted f : result.fitted()) {
            String note = switch (f.status()) {
                case FITTED -> f.atBound() ? "at the end of its range" : "";
                case FIXED -> "fixed by the bounds";
                case NOT_IDENTIFIED -> "not identified: " + f.whyNotIdentified() + " (held at Table 2's value)";
            };
            out.printf(Locale.ROOT, "  %-16s %12s   %-18s %s%n", label(f.name()), number(f.value()),
                f.range().fixed() ? "" : f.range().toString(), note);
        }
        out.printf(Locale.ROOT, "  %-16s %12s%n", "W_min (ms)", number(result.parameters().minimumDurationMs()));
        out.println();
        out.printf(Locale.ROOT, "residual: %.4g (rms of the momentum errors relative to each event's momentum%s)%n",
            result.residual(), result.forceSamples() ? ", and of the force samples relative to their peak" : "");
        out.println();
        out.println("errors per body with the fitted parameters (source 000 Tables 1 and 3):");
        out.printf(Locale.ROOT, "  %-12s %7s %18s %18s %18s%n", "body", "events", "impulse error %",
            "velocity error %", "direction error °");
        for (CalibrationResult.BodyError b : result.bodies()) {
            out.printf(Locale.ROOT, "  %-12s %7d %18s %18s %18s%n", b.name(), b.events(), orDash(b.impulsePercent()),
                orDash(b.velocityPercent()), orDash(b.directionDeg()));
        }
        out.flush();
    }

    private static String orDash(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String label(String name) {
        return switch (name) {
            case "S_h" -> "S_h (1/s)";
            case "S_w" -> "S_w (ms·N·s)";
            case "mu_s" -> "μ_s";
            case "mu_d" -> "μ_d";
            default -> name.startsWith("alpha ") ? "α " + name.substring(6) : name;
        };
    }

    /** Four significant digits, no exponent for ordinary magnitudes. */
    static String number(double value) {
        if (value != 0.0 && (Math.abs(value) >= 1e5 || Math.abs(value) < 1e-3)) {
            return String.format(Locale.ROOT, "%.4g", value);
        }
        String s = String.format(Locale.ROOT, "%.4f", value);
        if (Math.abs(value) >= 100) {
            s = String.format(Locale.ROOT, "%.3f", value);
        }
        return s;
    }
}
