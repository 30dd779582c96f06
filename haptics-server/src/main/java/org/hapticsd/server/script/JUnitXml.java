package org.hapticsd.server.script;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes test-script results as JUnit XML, as CI servers read it: one {@code testsuite} per script, one
 * {@code testcase} per assertion; a failed assertion has a {@code failure}, one the run could not check (the host
 * stalled beyond the script's budget) an {@code error}, both with the measured and expected values; the host
 * timing of a real-time assertion goes to its {@code system-out}. The layout is the common JUnit schema's
 * (Jenkins' junit-10.xsd: testsuites, testsuite, testcase, failure, error, skipped, system-out), which
 * {@code JUnitXmlTest} validates against.
 */
public final class JUnitXml {
    private JUnitXml() {
    }

    public static void write(Path file, Map<String, List<AssertionResult>> resultsByScript, double elapsedS)
        throws IOException {
        write(file, resultsByScript, Map.of(), elapsedS);
    }

    /** As above, with each script's own wall-clock time as its testsuite's {@code time} (what CI reports show). */
    public static void write(Path file, Map<String, List<AssertionResult>> resultsByScript,
                             Map<String, Double> secondsByScript, double elapsedS) throws IOException {
        int tests = 0;
        int failures = 0;
        int errors = 0;
        for (List<AssertionResult> results : resultsByScript.values()) {
            tests += results.size();
            failures += count(results, AssertionResult.Outcome.FAIL);
            errors += count(results, AssertionResult.Outcome.ERROR);
        }
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append(String.format(Locale.ROOT, "<testsuites tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%.3f\">%n",
            tests, failures, errors, elapsedS));
        for (Map.Entry<String, List<AssertionResult>> script : resultsByScript.entrySet()) {
            List<AssertionResult> results = script.getValue();
            Double seconds = secondsByScript.get(script.getKey());
            xml.append(String.format(Locale.ROOT,
                "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" skipped=\"0\"%s>%n",
                escape(script.getKey()), results.size(), count(results, AssertionResult.Outcome.FAIL),
                count(results, AssertionResult.Outcome.ERROR),
                seconds == null ? "" : String.format(Locale.ROOT, " time=\"%.3f\"", seconds)));
            for (AssertionResult r : results) {
                xml.append("    <testcase classname=\"").append(escape(script.getKey())).append("\" name=\"")
                    .append(escape(r.name())).append('"');
                if (r.passed() && r.hostTiming() == null) {
                    xml.append("/>\n");
                    continue;
                }
                xml.append(">\n");
                String checked = "measured " + r.measured() + ", expected " + r.expected();
                if (r.outcome() == AssertionResult.Outcome.FAIL) {
                    xml.append("      <failure message=\"").append(escape(checked)).append("\"/>\n");
                } else if (r.outcome() == AssertionResult.Outcome.ERROR) {
                    xml.append("      <error type=\"").append(errorType(r.error())).append("\" message=\"")
                        .append(escape(r.error()))
                        .append("\">").append(escape("not checked: " + checked)).append("</error>\n");
                }
                if (r.hostTiming() != null) {
                    xml.append("      <system-out>").append(escape(r.hostTiming())).append("</system-out>\n");
                }
                xml.append("    </testcase>\n");
            }
            xml.append("  </testsuite>\n");
        }
        xml.append("</testsuites>\n");
        Files.writeString(file, xml);
    }

    private static int count(List<AssertionResult> results, AssertionResult.Outcome outcome) {
        return (int) results.stream().filter(r -> r.outcome() == outcome).count();
    }

    /**
     * Text as XML 1.0 character data, for attributes and elements alike: markup characters as entities, and the
     * characters XML 1.0 forbids even as references (controls other than tab, line feed and carriage return, lone
     * surrogates, U+FFFE and U+FFFF) written out as a backslash, u and four hex digits, the notation a YAML script
     * gives them in: a name with a control character still reads as written and the file still parses. Tab, line
     * feed and carriage return are character references: an attribute's value would otherwise lose them to the
     * parser's normalisation.
     */
    static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '"' -> out.append("&quot;");
                case '\t', '\n', '\r' -> out.append("&#").append((int) c).append(';');
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < text.length()
                        && Character.isLowSurrogate(text.charAt(i + 1))) {
                        out.append(c).append(text.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF) {
                        out.append(String.format(Locale.ROOT, "\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }

    /** Why an assertion could not be checked, as the error's type: what a CI report groups by. */
    static String errorType(String why) {
        if (why.startsWith(ScriptRunner.DEVICE_UNAVAILABLE)) {
            return "DeviceUnavailable";
        }
        if (why.startsWith(ScriptRunner.LINK_BROKEN)) {
            return "LinkBroken";
        }
        if (why.startsWith(ScriptRunner.INTERRUPTED)) {
            return "Interrupted";
        }
        return "HostStall";
    }
}
