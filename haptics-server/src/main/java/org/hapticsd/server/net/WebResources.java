package org.hapticsd.server.net;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * The files the web port serves, all from the classpath: the page ({@code /web/...}, requested as {@code /...}) and
 * three.js from its WebJar ({@code META-INF/resources/webjars/three/VERSION/...}, requested as
 * {@code /webjars/three/...}). The page names no version: the one on the classpath is found from the WebJar's own
 * {@code pom.properties}, so upgrading {@code three.version} in the root pom needs no edit of the page.
 *
 * <p>A request path maps to a resource name only if it is made of plain name characters, has no {@code ..} segment
 * and ends in a file name with an extension: no traversal out of the two folders, and no directory listings (a
 * classpath directory on disk, as in tests, would otherwise answer with its file names).
 */
final class WebResources {
    static final String THREE_PREFIX = "/webjars/three/";
    private static final String THREE_POM = "/META-INF/maven/org.webjars.npm/three/pom.properties";
    private static final Pattern SAFE_PATH = Pattern.compile("(/[A-Za-z0-9_.-]+)*/[A-Za-z0-9_-][A-Za-z0-9_.-]*\\.[A-Za-z0-9]+");
    /** ES modules must be served as JavaScript: browsers refuse a module script with any other MIME type. */
    private static final Map<String, String> TYPES = Map.of(
        "html", "text/html; charset=utf-8",
        "js", "text/javascript; charset=utf-8",
        "mjs", "text/javascript; charset=utf-8",
        "css", "text/css; charset=utf-8",
        "json", "application/json",
        "svg", "image/svg+xml",
        "png", "image/png",
        "ico", "image/x-icon",
        "wasm", "application/wasm");

    private static final String THREE_VERSION = findThreeVersion();

    private WebResources() {
    }

    /** The version of the three.js WebJar on the classpath, or null when it is missing. */
    static String threeVersion() {
        return THREE_VERSION;
    }

    /** The classpath resource for a request path, or null when the path is not one this server serves. */
    static String resourceFor(String path) {
        String file = path.equals("/") ? "/index.html" : path;
        if (file.contains("..") || !SAFE_PATH.matcher(file).matches()) {
            return null;
        }
        if (file.startsWith(THREE_PREFIX)) {
            return THREE_VERSION == null ? null
                : "/META-INF/resources/webjars/three/" + THREE_VERSION + "/" + file.substring(THREE_PREFIX.length());
        }
        return "/web" + file;
    }

    /** The resource's bytes, or null when it does not exist. */
    static byte[] read(String resource) throws IOException {
        try (InputStream in = WebResources.class.getResourceAsStream(resource)) {
            return in == null ? null : in.readAllBytes();
        }
    }

    static String contentType(String resource) {
        String extension = resource.substring(resource.lastIndexOf('.') + 1);
        return TYPES.getOrDefault(extension, "application/octet-stream");
    }

    private static String findThreeVersion() {
        try (InputStream in = WebResources.class.getResourceAsStream(THREE_POM)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + THREE_POM, e);
        }
    }
}
