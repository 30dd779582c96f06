package org.hapticsd.server.script;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/** The JUnit XML of {@code hapticsd test}: valid against the common schema, one element per outcome. */
class JUnitXmlTest {

    private static Schema schema() throws SAXException {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        return factory.newSchema(new StreamSource(JUnitXmlTest.class.getResourceAsStream("/junit/junit-common.xsd")));
    }

    private static Path written(Path dir) throws IOException {
        Map<String, List<AssertionResult>> results = new LinkedHashMap<>();
        results.put("press \"the\" wall <real time>", List.of(
            new AssertionResult("steady & flat", true, "force.x [-4.17, -4.17] N", "within [-4.3, -4.04] N")
                .withHostTiming("host timing from 0.300 s to 2.500 s: loop gap 1.2 ms at 0.400 s"),
            new AssertionResult("too much", false, "force.x [0, 0] N", "within [6, inf] N")
                .withHostTiming("host timing from 0.300 s to 2.500 s: loop gap 1.2 ms at 0.400 s"),
            new AssertionResult("stalled", true, "ACTIVE at 2.000 s", "ACTIVE at 2.000 s")
                .withHostTiming("host timing from 0.300 s to 2.000 s: link gap 27.0 ms at 1.840 s")
                .asError("host stalled 27.0 ms at 1.840 s (no FORCE reached the device; budget 20 ms)")));
        results.put("lockstep", List.of(new AssertionResult("exact", true, "1 trip", "exactly 1")));
        Path file = dir.resolve("results.xml");
        JUnitXml.write(file, results, Map.of("lockstep", 1.25), 12.5);
        return file;
    }

    @Test
    void shouldValidateAgainstTheCommonJUnitSchema(@TempDir Path dir) throws Exception {
        Path file = written(dir);
        schema().newValidator().validate(new StreamSource(file.toFile()));
    }

    @Test
    void shouldWriteAFailureAnErrorWithTheStallAndTheHostTimingAsSystemOut(@TempDir Path dir) throws Exception {
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(written(dir).toFile());
        Element suites = doc.getDocumentElement();
        assertEquals("4", suites.getAttribute("tests"));
        assertEquals("1", suites.getAttribute("failures"));
        assertEquals("1", suites.getAttribute("errors"));
        Element suite = (Element) suites.getElementsByTagName("testsuite").item(0);
        assertEquals("", suite.getAttribute("time"), "no time given for this script");
        assertEquals("1.250", ((Element) suites.getElementsByTagName("testsuite").item(1)).getAttribute("time"));
        assertEquals("press \"the\" wall <real time>", suite.getAttribute("name"));
        assertEquals("1", suite.getAttribute("failures"));
        assertEquals("1", suite.getAttribute("errors"));
        Element failure = (Element) doc.getElementsByTagName("failure").item(0);
        assertTrue(failure.getAttribute("message").startsWith("measured force.x [0, 0] N, expected within"));
        Element error = (Element) doc.getElementsByTagName("error").item(0);
        assertEquals("host stalled 27.0 ms at 1.840 s (no FORCE reached the device; budget 20 ms)",
            error.getAttribute("message"));
        assertEquals("HostStall", error.getAttribute("type"));
        assertEquals(3, doc.getElementsByTagName("system-out").getLength(), "one per real-time assertion");
    }

    @Test
    void shouldWriteCharactersXmlForbidsSoThatTheFileStillParses(@TempDir Path dir) throws Exception {
        // XML 1.0 allows no control character but tab, line feed and carriage return, not even as a reference: a
        // script named "weird \u0001 end" in YAML used to make a file no parser reads.
        String name = "weird \u0001 end\ttab";
        Map<String, List<AssertionResult>> results = new LinkedHashMap<>();
        results.put(name, List.of(
            new AssertionResult("bell \u0007 and \uFFFF", false, "nothing \u0000", "a \uD800 lone surrogate")
                .withHostTiming("host timing \u001B[0m")
                .asError("host stalled \u0008 27.0 ms at 1.840 s (budget 20 ms)"),
            new AssertionResult("emoji \uD83D\uDE00 kept", false, "force \u0002", "within [0, 1] N")));
        Path file = dir.resolve("results.xml");
        JUnitXml.write(file, results, 1.0);

        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        schema().newValidator().validate(new StreamSource(file.toFile()));
        Element suite = (Element) doc.getElementsByTagName("testsuite").item(0);
        assertEquals("weird \\u0001 end\ttab", suite.getAttribute("name"), "control written as its escape, tab kept");
        Element first = (Element) doc.getElementsByTagName("testcase").item(0);
        assertEquals("bell \\u0007 and \\uFFFF", first.getAttribute("name"));
        Element error = (Element) doc.getElementsByTagName("error").item(0);
        assertEquals("host stalled \\u0008 27.0 ms at 1.840 s (budget 20 ms)", error.getAttribute("message"));
        assertEquals("not checked: measured nothing \\u0000, expected a \\uD800 lone surrogate", error.getTextContent());
        assertEquals("host timing \\u001B[0m", doc.getElementsByTagName("system-out").item(0).getTextContent());
        Element second = (Element) doc.getElementsByTagName("testcase").item(1);
        assertEquals("emoji \uD83D\uDE00 kept", second.getAttribute("name"), "a surrogate pair is a character");
        assertEquals("measured force \\u0002, expected within [0, 1] N",
            ((Element) second.getElementsByTagName("failure").item(0)).getAttribute("message"));
    }

    @Test
    void shouldRejectWhatTheSchemaForbids(@TempDir Path dir) throws Exception {
        // The validator is not a formality: a testcase without a name fails it.
        Path bad = Files.writeString(dir.resolve("bad.xml"),
            "<testsuites><testsuite name=\"s\" tests=\"1\"><testcase/></testsuite></testsuites>");
        assertThrows(SAXException.class, () -> schema().newValidator().validate(new StreamSource(bad.toFile())));
    }
}
