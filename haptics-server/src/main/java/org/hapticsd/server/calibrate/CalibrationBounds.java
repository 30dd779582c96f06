package org.hapticsd.server.calibrate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The search ranges of the calibration (source 000 Table 2's "range" column by default), and the file that
 * overrides them:
 * <pre>
 * e: [0.1, 3.0]
 * S_h: [100, 250]        # 1/s
 * S_w: [0.3, 2.0]        # ms·N·s
 * mu_s: [0.1, 1.0]
 * mu_d: [0.01, 1.0]
 * alpha: [0.1, 1.0]      # every α_j
 * alphas:                # one pair's α_j
 *   b0-b1: [0.9, 1.0]
 * </pre>
 * A range whose two ends are equal fixes that parameter. Keys left out keep their defaults.
 *
 * <h2>Defaults</h2>
 * Table 2's ranges, two of them widened just enough to hold Table 2's own fits, which the table prints outside
 * them: {@code S_w} up to 2.0 (the multi-point fit is 1.630, the printed range 0.3–1.0) and {@code μ_d} down to 0.01
 * (the single-point fit is 0.019, the printed range 0.1–1.0). With the printed ranges the source's own parameters
 * could not be recovered. {@code e} keeps the printed 0.1–3.0 although {@code e > 1} makes energy.
 */
public record CalibrationBounds(Range elasticity, Range heightFactorPerS, Range durationFactorMsNs,
                                Range staticFriction, Range dynamicFriction, Range correlationRatio,
                                Map<String, Range> pairCorrelationRatios) {

    public static final CalibrationBounds DEFAULTS = new CalibrationBounds(new Range(0.1, 3.0),
        new Range(100.0, 250.0), new Range(0.3, 2.0), new Range(0.1, 1.0), new Range(0.01, 1.0),
        new Range(0.1, 1.0), Map.of());

    public CalibrationBounds {
        pairCorrelationRatios = Map.copyOf(new TreeMap<>(pairCorrelationRatios));
    }

    /** The range of a pair's {@code α_j}. */
    public Range correlationRatio(String pairKey) {
        return pairCorrelationRatios.getOrDefault(pairKey, correlationRatio);
    }

    /** A closed interval {@code [low, high]}; a parameter with {@code low == high} is fixed. */
    public record Range(double low, double high) {
        public boolean fixed() {
            return low == high;
        }

        @Override
        public String toString() {
            return fixed() ? "fixed " + Report.number(low) : Report.number(low) + " – " + Report.number(high);
        }
    }

    private static final java.util.regex.Pattern NON_FINITE =
        java.util.regex.Pattern.compile("Malformed numeric value ('[-+]?\\.(?i:nan|inf)')");

    /** Reads a bounds file (YAML or JSON), starting from the defaults; every error names the file and key. */
    public static CalibrationBounds read(Path file) throws CollisionDataException {
        String source = file.toString();
        JsonNode root;
        try {
            root = JsonMapper.builder(new YAMLFactory()).build().readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            // YAML's .nan and .inf are valid YAML that the parser will not read as numbers: a bound must be finite.
            java.util.regex.Matcher nonFinite = NON_FINITE.matcher(String.valueOf(e.getOriginalMessage()));
            if (nonFinite.find()) {
                throw new CollisionDataException(source, line, 0, "a bound must be a finite number, got "
                    + nonFinite.group(1));
            }
            throw new CollisionDataException(source, line, 0, "not YAML: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new CollisionDataException(source, 0, 0, CollisionDataReader.readProblem(file, e));
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            return DEFAULTS;
        }
        if (!root.isObject()) {
            throw new CollisionDataException(source, 0, 0, "must be a mapping of parameter: [low, high]");
        }
        Map<String, Range> ranges = new LinkedHashMap<>();
        Map<String, Range> pairs = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String key = field.getKey();
            switch (key) {
                case "e", "S_h", "S_w", "mu_s", "mu_d", "alpha" ->
                    ranges.put(key, range(source, key, field.getValue(), positive(key)));
                case "alphas" -> {
                    if (!field.getValue().isObject()) {
                        throw new CollisionDataException(source, 0, 0,
                            "alphas: must be a mapping of pair (a-b): [low, high]");
                    }
                    for (Iterator<Map.Entry<String, JsonNode>> p = field.getValue().fields(); p.hasNext(); ) {
                        Map.Entry<String, JsonNode> pair = p.next();
                        String[] names = pair.getKey().split("-", 2);
                        if (names.length != 2 || names[0].isBlank() || names[1].isBlank()) {
                            throw new CollisionDataException(source, 0, 0, "alphas: '" + pair.getKey()
                                + "' is not a pair of body names a-b");
                        }
                        Range range = range(source, "alphas." + pair.getKey(), pair.getValue(), true);
                        checkRatio(source, "alphas." + pair.getKey(), range);
                        pairs.put(CollisionData.Contact.pairKey(names[0], names[1]), range);
                    }
                }
                default -> throw new CollisionDataException(source, 0, 0, "unknown key '" + key
                    + "' (known: e, S_h, S_w, mu_s, mu_d, alpha, alphas)");
            }
        }
        Range alpha = ranges.getOrDefault("alpha", DEFAULTS.correlationRatio);
        checkRatio(source, "alpha", alpha);
        return new CalibrationBounds(ranges.getOrDefault("e", DEFAULTS.elasticity),
            ranges.getOrDefault("S_h", DEFAULTS.heightFactorPerS),
            ranges.getOrDefault("S_w", DEFAULTS.durationFactorMsNs),
            ranges.getOrDefault("mu_s", DEFAULTS.staticFriction),
            ranges.getOrDefault("mu_d", DEFAULTS.dynamicFriction), alpha, pairs);
    }

    /** {@code S_h} and {@code α} must be > 0; {@code e}, {@code S_w} and the frictions may be 0. */
    private static boolean positive(String key) {
        return key.equals("S_h") || key.equals("alpha");
    }

    private static Range range(String source, String key, JsonNode node, boolean positive)
            throws CollisionDataException {
        if (!node.isArray() || node.size() != 2 || !node.get(0).isNumber() || !node.get(1).isNumber()) {
            throw new CollisionDataException(source, 0, 0, key + ": must be [low, high], two numbers, was " + node);
        }
        double low = node.get(0).asDouble();
        double high = node.get(1).asDouble();
        if (!Double.isFinite(low) || !Double.isFinite(high) || low > high) {
            throw new CollisionDataException(source, 0, 0, key + ": [" + low + ", " + high
                + "] is not a range (finite, low <= high)");
        }
        if (positive ? !(low > 0.0) : low < 0.0) {
            throw new CollisionDataException(source, 0, 0, key + ": the low end must be " + (positive ? "> 0" : ">= 0")
                + ", was " + low);
        }
        return new Range(low, high);
    }

    private static void checkRatio(String source, String key, Range range) throws CollisionDataException {
        if (range.high() > 1.0) {
            throw new CollisionDataException(source, 0, 0, key + ": a correlation ratio is at most 1, was "
                + range.high());
        }
    }
}
