package org.hapticsd.server.script;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes test-script results as JUnit XML (one testsuite per script, one testcase per assertion), as CI reads. */
public final class JUnitXml {
    private JUnitXml() {
    }

    public static void write(Path file, Map<String, List<AssertionResult>> resultsByScript, double elapsedS)
        throws IOException {
        int tests = 0;
        int failures = 0;
        for (List<AssertionResult> results : resultsByScript.values()) {
            tests += results.size();
            failures += (int) results.stream().filter(r -> !r.passed()).count();
        }
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        xml.append(String.format(Locale.ROOT, "<testsuites tests=\"%d\" failures=\"%d\" time=\"%.3f\">%n", tests,
            failures, elapsedS));
        for (Map.Entry<String, List<AssertionResult>> script : resultsByScript.entrySet()) {
            List<AssertionResult> results = script.getValue();
            long failed = results.stream().filter(r -> !r.passed()).count();
            xml.append(String.format(Locale.ROOT, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\">%n",
                escape(script.getKey()), results.size(), failed));
            for (AssertionResult r : results) {
                xml.append("    <testcase classname=\"").append(escape(script.getKey())).append("\" name=\"")
                    .append(escape(r.name())).append('"');
                if (r.passed()) {
                    xml.append("/>\n");
                } else {
                    xml.append(">\n      <failure message=\"").append(escape("measured " + r.measured()
                        + ", expected " + r.expected())).append("\"/>\n    </testcase>\n");
                }
            }
            xml.append("  </testsuite>\n");
        }
        xml.append("</testsuites>\n");
        Files.writeString(file, xml);
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
