package org.hapticsd.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * {@code hapticsd send parameters}: what SET_PARAMETER takes now, from the web port's {@code /api/parameters}
 * (docs/web-visualizer.md): one line a parameter, its value, range and the scene file's value, or the JSON as it came.
 * The web port is the one of the stream's WebSocket URL; a {@code tcp://} URL names no web port.
 */
final class ParameterListing {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ParameterListing() {
    }

    /** Prints the list; exit 0, or 1 with the reason when the server could not be read. */
    static int print(String streamUrl, Path trustCert, Duration timeout, boolean raw, PrintWriter out,
                     PrintWriter err) {
        URI uri = parametersUri(streamUrl);
        String body;
        try {
            HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
            if (trustCert != null && uri.getScheme().equals("https")) {
                builder.sslContext(trusting(trustCert));
            }
            HttpResponse<String> response = builder.build().send(HttpRequest.newBuilder(uri).timeout(timeout).GET()
                .build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                return fail(err, uri + " answered HTTP " + response.statusCode());
            }
            body = response.body();
        } catch (IOException | GeneralSecurityException e) {
            return fail(err, "could not read " + uri + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(err, "interrupted");
        }
        if (raw) {
            out.println(body);
            out.flush();
            return Main.EXIT_OK;
        }
        JsonNode table;
        try {
            table = JSON.readTree(body);
        } catch (IOException e) {
            return fail(err, uri + " did not answer JSON: " + e.getMessage());
        }
        out.print(format(table));
        out.flush();
        return Main.EXIT_OK;
    }

    /** {@code ws://HOST:PORT/...} → {@code http://HOST:PORT/api/parameters} (wss → https). */
    static URI parametersUri(String streamUrl) {
        URI stream;
        try {
            stream = new URI(streamUrl);
        } catch (URISyntaxException e) {
            throw new UsageException("--url: not a URL: " + e.getMessage());
        }
        String scheme = stream.getScheme() == null ? "" : stream.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("ws") && !scheme.equals("wss")) {
            throw new UsageException("parameters reads the web port: give --url ws://HOST:PORT/ws (or wss://), the "
                + "server's web port; " + (scheme.isEmpty() ? "'" + streamUrl + "'" : scheme + "://")
                + " names no web port");
        }
        if (stream.getHost() == null) {
            throw new UsageException("--url: no host in '" + streamUrl + "'");
        }
        try {
            return new URI(scheme.equals("wss") ? "https" : "http", null, stream.getHost(), stream.getPort(),
                "/api/parameters", null, null);
        } catch (URISyntaxException e) {
            throw new UsageException("--url: " + e.getMessage());
        }
    }

    /** One line a parameter: name, value with unit, accepted range, the scene file's value. */
    static String format(JsonNode table) {
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
            "scene revision %d: %d parameter(s) for set NAME VALUE%n", table.path("sceneRevision").asLong(),
            table.path("parameters").size()));
        int width = 4;
        for (JsonNode p : table.path("parameters")) {
            width = Math.max(width, p.path("name").asText().length());
        }
        text.append(String.format(Locale.ROOT, "%-" + width + "s  %-16s  %-28s  %s%n", "NAME", "VALUE", "RANGE",
            "FILE"));
        for (JsonNode p : table.path("parameters")) {
            String unit = p.path("unit").asText();
            String suffix = unit.isEmpty() ? "" : " " + unit;
            String range = (p.path("minIncluded").asBoolean() ? "[" : "(") + number(p.path("min")) + ", "
                + (p.path("max").isNull() ? "∞)" : number(p.path("max")) + "]") + suffix
                + (p.path("wholeNumber").asBoolean() ? ", whole" : "");
            text.append(String.format(Locale.ROOT, "%-" + width + "s  %-16s  %-28s  %s%n", p.path("name").asText(),
                number(p.path("value")) + suffix, range, number(p.path("loaded"))));
        }
        return text.toString();
    }

    /** Up to 6 significant digits, no trailing zeros: as the page shows them. */
    private static String number(JsonNode value) {
        return new java.math.BigDecimal(value.asDouble()).round(new java.math.MathContext(6)).stripTrailingZeros()
            .toPlainString();
    }

    private static SSLContext trusting(Path pem) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            int i = 0;
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                store.setCertificateEntry("trusted-" + i++, certificate);
            }
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    private static int fail(PrintWriter err, String message) {
        err.println("hapticsd: send: parameters: " + message);
        err.flush();
        return Main.EXIT_FAILURE;
    }
}
