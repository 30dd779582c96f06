package org.hapticsd.server.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Headless Chromium driven through chromedriver with the W3C WebDriver protocol (https://www.w3.org/TR/webdriver2/),
 * spoken directly over {@link HttpClient} with Jackson: the few commands a page test needs (navigate, execute a
 * script, pointer actions, click, screenshot) do not justify Selenium and its dependency tree.
 *
 * <p>WebGL without a GPU: Chromium falls back to ANGLE over SwiftShader, its software Vulkan, which it only allows
 * for WebGL when told the unsafe fallback is acceptable (a test page is trusted). {@code --use-angle=swiftshader}
 * and {@code --use-gl=swiftshader}, the flags older guides give, are worse on Chromium 156: the first left the page
 * unresponsive here (scripts timed out), the second names a GL implementation this build no longer has.
 */
final class ChromiumSession implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** A name the browser resolves to 127.0.0.1 (as a hosts-file alias would), which is not a loopback name. */
    static final String ALIAS_HOST = "workbench.hapticsd.test";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration DRIVER_START = Duration.ofSeconds(20);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);

    private final Process driver;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI base;
    private String sessionId;

    private ChromiumSession(Process driver, URI base) {
        this.driver = driver;
        this.base = base;
    }

    /** Why this machine cannot run the browser tests, or null when it can. */
    static String missingBrowser() {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            return "headless browser tests need " + CHROMIUM + " and " + CHROMEDRIVER
                + " (Debian packages chromium and chromium-driver; .ci/run installs them)";
        }
        return null;
    }

    /** Starts chromedriver on a free port and opens a browser window of the given size in CSS pixels. */
    static ChromiumSession start(Path logDir, int width, int height) throws IOException, InterruptedException {
        Files.createDirectories(logDir);
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        Process process = new ProcessBuilder(CHROMEDRIVER.toString(), "--port=" + port,
            "--log-path=" + logDir.resolve("chromedriver.log"))
            .redirectErrorStream(true)
            .redirectOutput(logDir.resolve("chromedriver.out").toFile())
            .start();
        ChromiumSession session = new ChromiumSession(process, URI.create("http://127.0.0.1:" + port));
        try {
            session.awaitDriver();
            session.open(width, height);
        } catch (IOException | InterruptedException | RuntimeException e) {
            session.close();
            throw e;
        }
        return session;
    }

    private void awaitDriver() throws IOException, InterruptedException {
        long deadline = System.nanoTime() + DRIVER_START.toNanos();
        while (true) {
            try {
                JsonNode status = JSON.readTree(http.send(HttpRequest.newBuilder(base.resolve("/status")).GET()
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body());
                if (status.path("value").path("ready").asBoolean()) {
                    return;
                }
            } catch (ConnectException notYet) {
                if (!driver.isAlive()) {
                    throw new IOException("chromedriver exited with " + driver.exitValue() + " at start");
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("chromedriver not ready after " + DRIVER_START.toSeconds() + " s");
            }
            Thread.sleep(100);
        }
    }

    private void open(int width, int height) throws IOException, InterruptedException {
        ObjectNode options = JSON.createObjectNode();
        options.put("binary", CHROMIUM.toString());
        ArrayNode args = options.putArray("args");
        for (String arg : List.of("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
            "--enable-unsafe-swiftshader", "--window-size=" + width + "," + height,
            "--force-device-scale-factor=1", "--no-first-run", "--disable-extensions",
            "--host-resolver-rules=MAP " + ALIAS_HOST + " 127.0.0.1")) {
            args.add(arg);
        }
        ObjectNode body = JSON.createObjectNode();
        ObjectNode always = body.putObject("capabilities").putObject("alwaysMatch");
        always.put("browserName", "chrome");
        always.set("goog:chromeOptions", options);
        JsonNode value = command("POST", "/session", body);
        sessionId = value.path("sessionId").asText();
    }

    void navigate(String url) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("url", url);
        command("POST", session("/url"), body);
    }

    /** Runs a synchronous script (its {@code return} value comes back as JSON); {@code args} are its arguments. */
    JsonNode execute(String script, Object... args) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("script", script);
        body.set("args", JSON.valueToTree(args));
        return command("POST", session("/execute/sync"), body);
    }

    /** Performs one input source's actions, e.g. a mouse's pointerMove/pointerDown/pointerUp sequence. */
    void perform(ObjectNode source) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.putArray("actions").add(source);
        command("POST", session("/actions"), body);
    }

    String findElement(String css) throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode().put("using", "css selector").put("value", css);
        JsonNode element = command("POST", session("/element"), body);
        // The W3C element reference key.
        return element.path("element-6066-11e4-a52e-4f735466cecf").asText();
    }

    void click(String elementId) throws IOException, InterruptedException {
        command("POST", session("/element/" + elementId + "/click"), JSON.createObjectNode());
    }

    /** Empties a text or number field and types {@code text} into it, as a user at the keyboard would. */
    void type(String elementId, String text) throws IOException, InterruptedException {
        command("POST", session("/element/" + elementId + "/clear"), JSON.createObjectNode());
        command("POST", session("/element/" + elementId + "/value"), JSON.createObjectNode().put("text", text));
    }

    /** A PNG of the viewport. */
    byte[] screenshot() throws IOException, InterruptedException {
        return Base64.getDecoder().decode(command("GET", session("/screenshot"), null).asText());
    }

    private String session(String path) {
        return "/session/" + sessionId + path;
    }

    /** Sends one WebDriver command; returns its {@code value}, or throws with the driver's error and message. */
    private JsonNode command(String method, String path, JsonNode body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(COMMAND_TIMEOUT)
            .header("Content-Type", "application/json; charset=utf-8");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        JsonNode value = JSON.readTree(response.body()).path("value");
        if (response.statusCode() != 200) {
            throw new IllegalStateException("WebDriver " + method + " " + path + ": HTTP " + response.statusCode()
                + " " + value.path("error").asText() + ": " + value.path("message").asText());
        }
        return value;
    }

    /** Ends the browser session, then chromedriver and anything it left running. */
    @Override
    public void close() {
        try {
            if (sessionId != null) {
                command("DELETE", "/session/" + sessionId, null);
            }
        } catch (IOException | RuntimeException e) {
            // The driver may already be gone; the processes are ended below either way.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            driver.descendants().forEach(ProcessHandle::destroy);
            driver.destroy();
            try {
                if (!driver.waitFor(5, TimeUnit.SECONDS)) {
                    driver.descendants().forEach(ProcessHandle::destroyForcibly);
                    driver.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
