package org.hapticsd.server.scene;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.jsontype.TypeDeserializer;
import com.fasterxml.jackson.databind.type.ArrayType;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads a YAML scene file into a {@link SceneSpec}, or fails with one line that names the file, the line and
 * column, the field path and the problem, e.g. {@code scenes/x.yaml:12:20: contact.stiffnessNpm: must be > 0}.
 */
public final class SceneLoader {
    /** Name used in messages for the scene built into the server. */
    public static final String EMBEDDED_NAME = "<embedded wall.yaml>";
    private static final String EMBEDDED_RESOURCE = "/scenes/wall.yaml";
    /** A scene file's largest size: the YAML parser's own limit of 3 Mi code points, in bytes. */
    static final long MAX_SCENE_BYTES = 3L << 20;
    /** A line's largest length, in characters: the parser's time grows with its square (1 Mi took about 1 s). */
    static final int MAX_LINE_CHARS = 1 << 20;

    private final ObjectMapper mapper;
    /** Where the list most recently read started and ended; see {@link #describe}. Parsing is single-threaded. */
    private final ThreadLocal<JsonLocation[]> lastList = ThreadLocal.withInitial(() -> new JsonLocation[2]);

    public SceneLoader() {
        this.mapper = strictYamlMapper(lastList);
    }

    /**
     * The YAML mapper of every hapticsd input file (scenes, test scripts): unknown fields, duplicate keys, text for
     * numbers, fractional whole numbers and trailing documents are errors; {@link Located} objects learn where they
     * start; lists remember their extent in {@code lastList} so {@link #describe} can name a list's own line.
     */
    public static ObjectMapper strictYamlMapper(ThreadLocal<JsonLocation[]> lastList) {
        SimpleModule locating = new SimpleModule("locations");
        locating.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                          JsonDeserializer<?> deserializer) {
                if (Located.class.isAssignableFrom(description.getBeanClass())) {
                    return new LocatingDeserializer(deserializer);
                }
                return deserializer;
            }

            @Override
            public JsonDeserializer<?> modifyArrayDeserializer(DeserializationConfig config, ArrayType type,
                                                               BeanDescription description,
                                                               JsonDeserializer<?> deserializer) {
                return new ListTrackingDeserializer(deserializer, lastList);
            }
        });
        return JsonMapper.builder(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .addModule(locating)
            .build();
    }

    /** Loads and checks a scene file. */
    public SceneSpec load(Path file) throws SceneException {
        String text;
        try {
            // Before reading: a FIFO hung the load, and /dev/zero or a 279 MB file ran out of heap with advice
            // to add more (a tester). A regular file within the parser's own code-point limit, in bytes.
            if (Files.exists(file) && !Files.isDirectory(file) && !Files.isRegularFile(file)) {
                throw new SceneException(file + ": not a regular file (a device, FIFO or socket): a scene is a file");
            }
            if (Files.isRegularFile(file) && Files.size(file) > MAX_SCENE_BYTES) {
                throw new SceneException(String.format(java.util.Locale.ROOT,
                    "%s: scene file is %.1f MB, more than the %d MB a scene file may be", file,
                    Files.size(file) / 1e6, MAX_SCENE_BYTES >> 20));
            }
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new SceneException(file + ": scene file not found");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new SceneException(file + ": not UTF-8 text" + firstInvalidUtf8(file), e);
        } catch (IOException e) {
            throw new SceneException(file + ": cannot read scene file: " + e.getMessage(), e);
        }
        SceneSpec spec = parse(file.toString(), new StringReader(text));
        Path folder = file.toAbsolutePath().getParent();
        spec.origin(file.toString(), folder == null ? Path.of("") : folder);
        return spec;
    }

    /** The default scene shipped inside the server (a copy of scenes/wall.yaml). */
    public SceneSpec loadEmbedded() throws SceneException {
        try (InputStream in = SceneLoader.class.getResourceAsStream(EMBEDDED_RESOURCE)) {
            if (in == null) {
                throw new SceneException(EMBEDDED_NAME + ": missing from the server's classpath");
            }
            return parse(EMBEDDED_NAME, new StringReader(new String(in.readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new SceneException(EMBEDDED_NAME + ": cannot read: " + e.getMessage(), e);
        }
    }

    /** Parses scene text; {@code source} names it in error messages. */
    public SceneSpec parse(String source, Reader text) throws SceneException {
        SceneSpec spec;
        String content;
        try {
            content = readAll(text);
        } catch (IOException e) {
            throw new SceneException(source + ": cannot read scene: " + e.getMessage(), e);
        }
        int longest = content.lines().mapToInt(String::length).max().orElse(0);
        if (longest > MAX_LINE_CHARS) {
            // The YAML parser's time grows with the square of a line's length: 8 MB on one line took 30 s.
            throw new SceneException(source + ": a line of " + longest + " characters, more than the "
                + MAX_LINE_CHARS + " a scene file's line may have");
        }
        if (content.lines().allMatch(line -> line.isBlank() || line.strip().startsWith("#"))) {
            throw new SceneException(source + ": scene file is empty");
        }
        String alias = findUnsupported(mapper, source, content);
        if (alias != null) {
            throw new SceneException(alias);
        }
        lastList.get()[0] = null;
        try {
            spec = mapper.readValue(content, SceneSpec.class);
        } catch (JsonProcessingException e) {
            throw new SceneException(describe(source, e, lastList.get()), e);
        } catch (IOException e) {
            throw new SceneException(source + ": cannot read scene: " + e.getMessage(), e);
        }
        if (spec == null) {
            throw new SceneException(source + ": scene file is empty");
        }
        spec.origin(source, Path.of(""));
        checkWhole(source, spec);
        return spec;
    }

    /** Checks that span fields: required fields without defaults, unique names, path ordering. */
    private static void checkWhole(String source, SceneSpec spec) throws SceneException {
        Set<String> names = new HashSet<>();
        names.add(spec.tool().name());
        List<BodySpec> bodies = spec.bodies();
        for (int i = 0; i < bodies.size(); i++) {
            BodySpec body = bodies.get(i);
            String at = "bodies[" + i + "]";
            if (body == null) {
                throw new SceneException(source + ": " + at + ": empty body");
            }
            if (body.name() == null) {
                throw error(source, body, at + ".name", "missing (every body needs a unique name)");
            }
            if (!names.add(body.name())) {
                throw error(source, body, at + ".name",
                    "'" + body.name() + "' is already used by the tool or another body");
            }
            if (body.shape() == null) {
                throw error(source, body, at + ".shape", "missing (type " + ShapeSpec.TYPES + ")");
            }
            String missing = body.shape().missingField();
            if (missing != null) {
                throw error(source, body.shape(), at + ".shape." + missing, "missing");
            }
        }
        List<DeformableSpec> deformables = spec.deformables();
        Set<String> deformableNames = new HashSet<>();
        for (int i = 0; i < deformables.size(); i++) {
            DeformableSpec d = deformables.get(i);
            String at = "deformables[" + i + "]";
            if (d == null) {
                throw new SceneException(source + ": " + at + ": empty entry");
            }
            if (d.name() == null) {
                throw error(source, d, at + ".name", "missing (every deformable body needs a unique name)");
            }
            if (!names.add(d.name())) {
                throw error(source, d, at + ".name", "'" + d.name() + "' is already used by the tool or another body");
            }
            deformableNames.add(d.name());
            if (d.type() == null) {
                throw error(source, d, at + ".type", "missing (" + DeformableSpec.TYPES + ")");
            }
            boolean massSpringFields = !d.nodes().isEmpty() || !d.springs().isEmpty() || d.grid() != null;
            if ("string".equals(d.type()) && massSpringFields) {
                throw error(source, d, at + ".type", "a string has no nodes, springs or grid (those are mass-spring's)");
            }
            if ("string".equals(d.type()) && !d.massSpringSettings().isEmpty()) {
                String given = String.join(", ", d.massSpringSettings());
                throw error(source, d, at + "." + d.massSpringSettings().iterator().next(), "a string takes no "
                    + given + " (mass-spring settings: a string's mass, stiffness and step are in string:)");
            }
            if ("mass-spring".equals(d.type()) && d.string() != null) {
                throw error(source, d, at + ".string", "only for type: string");
            }
        }
        Set<String> groups = new HashSet<>();
        for (int i = 0; i < bodies.size(); i++) {
            BodySpec body = bodies.get(i);
            String at = "bodies[" + i + "]";
            if (body.group() != null) {
                groups.add(body.group());
            }
            boolean staticOnly = body.shape() instanceof ShapeSpec.Plane || body.shape() instanceof ShapeSpec.Mesh;
            if (staticOnly && body.motion() != BodySpec.Motion.STATIC) {
                throw error(source, body, at + ".motion",
                    "a plane or mesh has no volume: it can only be static, got " + body.motion().name().toLowerCase());
            }
            if (!Double.isNaN(body.massKg()) && !Double.isNaN(body.densityKgpm3())) {
                throw error(source, body, at + ".massKg", "give massKg or densityKgpm3, not both");
            }
            if (body.motion() != BodySpec.Motion.DYNAMIC
                && (!Double.isNaN(body.massKg()) || !Double.isNaN(body.densityKgpm3()))) {
                throw error(source, body, at + ".massKg", "only a dynamic body has a mass");
            }
            if (body.grab() != null && body.motion() != BodySpec.Motion.DYNAMIC) {
                throw error(source, body.grab(), at + ".grab", "only a dynamic body can be grabbed, this one is "
                    + body.motion().name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        List<ContactModeSpec> modes = spec.contactModes();
        for (int i = 0; i < modes.size(); i++) {
            ContactModeSpec mode = modes.get(i);
            String at = "contactModes[" + i + "]";
            if (mode == null) {
                throw new SceneException(source + ": " + at + ": empty entry");
            }
            if (mode.problem() != null) {
                throw error(source, mode, at, mode.problem());
            }
            List<String> named = mode.pair() != null ? mode.pair() : mode.body() != null ? List.of(mode.body()) : List.of();
            for (String name : named) {
                if (!names.contains(name)) {
                    throw error(source, mode, at, "no body or tool named '" + name + "'");
                }
                if (deformableNames.contains(name)) {
                    throw error(source, mode, at, "'" + name + "' is a deformable body: contact modes are for rigid "
                        + "bodies, the tool and groups (a deformable body meets them through its own contacts, "
                        + "docs/deformable.md)");
                }
            }
            if (mode.group() != null && !groups.contains(mode.group())) {
                throw error(source, mode, at + ".group", "no body is in group '" + mode.group() + "'");
            }
        }
        List<WaypointSpec> path = spec.device().hand().path();
        double previousS = -1;
        for (int i = 0; i < path.size(); i++) {
            WaypointSpec point = path.get(i);
            String at = "device.hand.path[" + i + "]";
            if (point == null) {
                throw new SceneException(source + ": " + at + ": empty waypoint");
            }
            if (Double.isNaN(point.tS())) {
                throw error(source, point, at + ".t", "missing (time in seconds)");
            }
            if (point.positionM() == null) {
                throw error(source, point, at + ".position", "missing ([x, y, z] in metres)");
            }
            if (!(point.tS() > previousS)) {
                throw error(source, point, at + ".t",
                    "times must increase along the path, got " + point.tS() + " after " + previousS);
            }
            previousS = point.tS();
        }
        if (spec.device().maxContinuousForceN() > spec.device().maxForceN()) {
            throw new SceneException(source + ": device.maxContinuousForceN: must not exceed device.maxForceN ("
                + spec.device().maxContinuousForceN() + " > " + spec.device().maxForceN() + ")");
        }
        if (spec.tool().forceShading() && spec.tool().rendering() != ToolSpec.Rendering.PROXY) {
            throw new SceneException(source + ": tool.forceShading: needs tool.rendering: proxy (force shading moves "
                + "the proxy; the tool's own contacts are not shaded)");
        }
        CouplingSpec coupling = spec.tool().coupling();
        if (coupling != null && spec.tool().rendering() != ToolSpec.Rendering.COUPLING) {
            throw error(source, coupling, "tool.coupling", "needs tool.rendering: coupling (the coupling joins the "
                + "device to a dynamic proxy; the other renderings have none)");
        }
        if (spec.tool().rendering() == ToolSpec.Rendering.COUPLING && !spec.deformables().isEmpty()) {
            DeformableSpec d = spec.deformables().get(0);
            throw error(source, d, "deformables[0] (" + d.name() + ")", "a tool rendered by coupling does not meet "
                + "deformable bodies in this version (their node springs would load the proxy's explicit step); use "
                + "tool.rendering: contact or proxy");
        }
    }

    private static SceneException error(String source, Located where, String field, String problem) {
        return new SceneException(source + ":" + where.line() + ":" + where.column() + ": " + field + ": " + problem);
    }

    /**
     * The first thing in {@code content} that YAML would read differently from what its author most likely meant, as
     * the one-line message that refuses it, or {@code null}. For scenes and test scripts; syntax errors are left to
     * the full parse, which describes them.
     * <ul>
     *   <li>A character YAML does not allow (a NUL, another control character): SnakeYAML names no place for it, and
     *       the message said line 1, column 1 (a tester).</li>
     *   <li>An alias ({@code *name}): the parser hands it to the fields as the plain text of its name, so
     *       {@code name: *n} would have loaded as 'n', and a list field said it got text.</li>
     *   <li>A YAML 1.1 number spelling: {@code rateHz: 0500} ran the loop at 320 Hz (octal), and {@code 0x3E8},
     *       {@code 0b101} and {@code 1_000} were taken as well (a tester). Refused rather than read, as the loader
     *       refuses every other coercion.</li>
     *   <li>A YAML 1.1 boolean spelling: {@code yes}, {@code no}, {@code on}, {@code off}, {@code y}, {@code n}.</li>
     * </ul>
     */
    public static String findUnsupported(ObjectMapper mapper, String source, String content) {
        String character = findForbiddenCharacter(source, content);
        if (character != null) {
            return character;
        }
        try (JsonParser parser = mapper.getFactory().createParser(content)) {
            for (JsonToken token; (token = parser.nextToken()) != null; ) {
                String problem = null;
                if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                    problem = "YAML alias '*" + parser.getText() + "': aliases are not supported; write the value out";
                } else if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
                    problem = numberSpelling(parser.getText(), parser.getNumberValue());
                } else if (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE) {
                    String text = parser.getText();
                    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                        problem = "'" + text + "' is read by YAML as " + (token == JsonToken.VALUE_TRUE) + ": write "
                            + (token == JsonToken.VALUE_TRUE) + ", or quote it if text is meant";
                    }
                }
                if (problem != null) {
                    JsonLocation at = parser.currentTokenLocation();
                    String path = contextPath(parser.getParsingContext());
                    return source + ":" + at.getLineNr() + ":" + at.getColumnNr() + ": "
                        + (path.isEmpty() ? "" : path + ": ") + problem;
                }
            }
        } catch (IOException syntax) {
            // Described by the full parse.
        }
        return null;
    }

    /** A number written in a YAML 1.1 form that is read differently from its digits, or null: see above. */
    private static String numberSpelling(String text, Number value) {
        String digits = text.startsWith("-") || text.startsWith("+") ? text.substring(1) : text;
        String mantissa = digits.split("[eE]")[0];
        if (value.doubleValue() == 0.0 && mantissa.chars().anyMatch(c -> c >= '1' && c <= '9')) {
            // 1e-400 read as 0 and was refused as "got 0.0" (a tester): say that the number is too small to hold.
            return text + " is closer to zero than a double can hold (4.9e-324): it would read as 0";
        }
        if (digits.contains("_")) {
            return text + " groups its digits with '_': write " + value;
        }
        if (digits.length() > 1 && digits.charAt(0) == '0' && Character.isLetter(digits.charAt(1))) {
            return text + " is a number in base " + (Character.toLowerCase(digits.charAt(1)) == 'x' ? 16 : 2)
                + " (" + value + "): write it in decimal";
        }
        if (digits.length() > 1 && digits.charAt(0) == '0' && Character.isDigit(digits.charAt(1))
            && digits.chars().allMatch(Character::isDigit)) {
            return text + " has a leading zero, which YAML reads as an octal number (" + value + "): write "
                + (text.startsWith("-") ? "-" : "") + digits.replaceFirst("^0+(?=\\d)", "")
                + ", or quote it if text is meant";
        }
        return null;
    }

    /** Where a value sits, as the loader's messages name fields: {@code bodies[2].shape.radiusM}. */
    private static String contextPath(JsonStreamContext context) {
        java.util.ArrayDeque<JsonStreamContext> chain = new java.util.ArrayDeque<>();
        for (JsonStreamContext c = context; c != null && !c.inRoot(); c = c.getParent()) {
            chain.addFirst(c);
        }
        StringBuilder path = new StringBuilder();
        for (JsonStreamContext c : chain) {
            if (c.inArray()) {
                path.append('[').append(Math.max(0, c.getCurrentIndex())).append(']');
            } else if (c.getCurrentName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(c.getCurrentName());
            }
        }
        return path.toString();
    }

    /**
     * The first character YAML does not allow in a file (C0 controls but tab, line feed and carriage return; DEL; C1
     * controls but NEL; U+FFFE, U+FFFF), with its line and column, or null.
     */
    private static String findForbiddenCharacter(String source, String content) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < content.length(); i++) {
            char c = content.charAt(i);
            boolean forbidden = c < 0x20 ? c != '\t' && c != '\n' && c != '\r'
                : c == 0x7F || (c >= 0x80 && c <= 0x9F && c != 0x85) || c == 0xFFFE || c == 0xFFFF;
            if (forbidden) {
                return String.format(Locale.ROOT, "%s:%d:%d: control character U+%04X, which a YAML file may not "
                    + "hold", source, line, column, (int) c);
            }
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
        }
        return null;
    }

    private static String readAll(Reader text) throws IOException {
        StringBuilder out = new StringBuilder();
        char[] buffer = new char[8192];
        for (int n; (n = text.read(buffer)) > 0; ) {
            out.append(buffer, 0, n);
        }
        return out.toString();
    }

    /**
     * One line from a Jackson failure: location, field path and the most useful part of the reason.
     *
     * <p>A setter rejects a list after the parser has consumed it, so Jackson reports the list's end token, which
     * for a block-style YAML list is the start of the next line: that would name the wrong field's line. When
     * the error sits on the end of the list just read, the list's start is reported instead.
     */
    public static String describe(String source, JsonProcessingException e, JsonLocation[] lastList) {
        for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
            if (cause instanceof MarkedYAMLException yaml) {
                return describeSyntax(source, yaml);
            }
        }
        StringBuilder out = new StringBuilder(source);
        JsonLocation location = e.getLocation();
        if (location != null && lastList[0] != null && e.getCause() instanceof IllegalArgumentException
            && location.getLineNr() == lastList[1].getLineNr() && location.getColumnNr() == lastList[1].getColumnNr()) {
            location = lastList[0];
        }
        if (location != null && location.getLineNr() > 0) {
            out.append(':').append(location.getLineNr()).append(':').append(location.getColumnNr());
        }
        out.append(": ");
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            out.append(path(mapping.getPath())).append(": ");
        }
        out.append(reason(e));
        return out.toString();
    }

    /** A YAML syntax error: SnakeYAML's problem and its position (its first line is only the context). */
    private static String describeSyntax(String source, MarkedYAMLException yaml) {
        Mark mark = yaml.getProblemMark() != null ? yaml.getProblemMark() : yaml.getContextMark();
        String where = mark == null ? "" : ":" + (mark.getLine() + 1) + ":" + (mark.getColumn() + 1);
        String problem = yaml.getProblem() != null ? yaml.getProblem() : yaml.getContext();
        String context = yaml.getProblem() != null && yaml.getContext() != null ? " (" + yaml.getContext() + ")" : "";
        return (source + where + ": YAML syntax: " + problem + context).replaceAll("\\s*\\n\\s*", " ");
    }

    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String reason(JsonProcessingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            String known = unknown.getKnownPropertyIds() == null ? "" : unknown.getKnownPropertyIds().stream()
                .map(Object::toString).sorted().collect(Collectors.joining(", "));
            return "unknown field '" + unknown.getPropertyName() + "'"
                + (known.isEmpty() ? "" : " (expected one of: " + known + ")");
        }
        if (e instanceof InvalidTypeIdException badType) {
            if (badType.getTypeId() == null) {
                return "missing 'type' (one of " + ShapeSpec.TYPES + ")";
            }
            return "unknown type '" + badType.getTypeId() + "' (expected " + ShapeSpec.TYPES + ")";
        }
        String original = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (original.startsWith("Expected a field name")) {
            // SnakeYAML's event class followed (a tester): `? [a, b]` or a list or mapping used as a key.
            return "a mapping key that is not a plain name (a '? ' key, or a list or mapping used as a key): keys are "
                + "field names";
        }
        java.util.regex.Matcher nullElement = NULL_ELEMENT.matcher(original);
        if (nullElement.lookingAt()) {
            // Jackson advised disabling one of its features (a tester's `gravity: [0, 0, ~]`).
            return "an empty item (~ or null): expected " + describeType(elementType(nullElement.group(1)));
        }
        java.util.regex.Matcher nonFinite = NON_FINITE.matcher(original);
        if (nonFinite.lookingAt()) {
            return "must be a finite number, got " + nonFinite.group(1);
        }
        if (original.startsWith("Trailing token")) {
            return "a second YAML document (after '---'): the file holds one";
        }
        if (e instanceof MismatchedInputException empty && empty.getTargetType() != null
            && original.startsWith("Cannot map `null` into type")) {
            return "no value given (expected " + describeType(empty.getTargetType()) + ")";
        }
        Throwable cause = e.getCause();
        // A setter's refusal inside a nested mapping comes wrapped in Jackson's own exceptions.
        while (cause instanceof JsonMappingException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
            return stripFieldPrefix(cause.getMessage(), e);
        }
        if (cause instanceof NullPointerException) {
            // List.copyOf of a list with a null item: `bodies:` followed by a `-` with nothing after it.
            return "a list item is empty (a '-' with nothing after it)";
        }
        java.util.regex.Matcher coerced = COERCED_ELEMENT.matcher(original);
        if (coerced.lookingAt()) {
            return "expected " + describeType(elementType(coerced.group(2))) + ", got text " + coerced.group(1);
        }
        java.util.regex.Matcher wrongScalar = COERCED_SCALAR.matcher(original);
        if (wrongScalar.lookingAt() && e instanceof MismatchedInputException mismatch
            && mismatch.getTargetType() != null) {
            String tooLarge = wholeNumberOutOfRange(mismatch.getTargetType(), wrongScalar.group(1),
                wrongScalar.group(2));
            if (tooLarge != null) {
                return tooLarge;
            }
            return "expected " + describeType(mismatch.getTargetType()) + ", got " + given(wrongScalar.group(1),
                wrongScalar.group(2));
        }
        java.util.regex.Matcher outOfRange = OUT_OF_RANGE.matcher(original);
        if (outOfRange.lookingAt()) {
            return expectedWholeNumberWithin(outOfRange.group(1), outOfRange.group(2), outOfRange.group(3));
        }
        java.util.regex.Matcher scalar = SCALAR_FOR_MAPPING.matcher(original);
        if (scalar.find()) {
            return "expected a mapping, got " + givenForMapping(scalar.group(1), scalar.group(2));
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            Class<?> target = mismatch.getTargetType();
            String detail = firstLine(e.getOriginalMessage())
                .replace(" (but could if coercion was enabled using `CoercionConfig`)", "");
            // Jackson's "Cannot deserialize value of type `java.util.ArrayList<...>` from Object value" names Java
            // types: say what the file has instead.
            java.util.regex.Matcher found = java.util.regex.Pattern.compile("^Cannot deserialize value of type `[^`]*` "
                + "from (\\w+) value").matcher(detail);
            if (found.find()) {
                String given = switch (found.group(1)) {
                    case "Array" -> "a list";
                    case "Object" -> "a mapping";
                    case "String" -> "text";
                    case "Integer" -> "a whole number";
                    case "Float", "Double", "Floating-point" -> "a number";
                    case "Boolean" -> "true or false";
                    default -> "a value of kind " + found.group(1).toLowerCase(Locale.ROOT);
                };
                return "expected " + describeType(target) + ", got " + given;
            }
            return "expected " + describeType(target) + ": " + detail;
        }
        return firstLine(e.getOriginalMessage());
    }

    /** A YAML number whose value is whole ({@code 1e3}, {@code 1000.0}), however it is written. */
    private static boolean isWhole(String value) {
        try {
            double number = Double.parseDouble(value.strip());
            return Double.isFinite(number) && number == Math.rint(number);
        } catch (NumberFormatException notJava) {
            return false;
        }
    }

    /** An empty item ({@code ~}, {@code null}) in a list of numbers: the array's Java type in group 1. */
    private static final java.util.regex.Pattern NULL_ELEMENT =
        java.util.regex.Pattern.compile("Cannot coerce `null` to element of `([^`]*)`");
    /** Text where a list of numbers wants a number: the value in group 1, the array's Java type in group 2. */
    private static final java.util.regex.Pattern COERCED_ELEMENT =
        java.util.regex.Pattern.compile("Cannot coerce String value \\((\"[^\"]*\")\\) to element of `([^`]*)`");
    /**
     * A scalar of the wrong kind for a single value ({@code connected: maybe}, {@code rateHz: 1000.0}): Jackson's
     * kind of value in group 1, the value as it quotes it in group 2. Its message names Java types and Jackson's
     * settings; the file's author wants to read what was expected and what the file has.
     */
    private static final java.util.regex.Pattern COERCED_SCALAR =
        java.util.regex.Pattern.compile("Cannot coerce ([\\w-]+) value \\((.*)\\) to `[^`]*` value");

    /**
     * What the file has, in the words of {@link #describeType}. Text where a number or true/false is wanted that
     * holds a space is most often a flow mapping or list left open (a step's opening brace with no closing one):
     * YAML then reads the next line's key into the same plain scalar.
     */
    private static String given(String kind, String value) {
        return switch (kind) {
            case "String" -> "text " + value + (value.strip().contains(" ")
                ? " (if a '{' or '[' above is left unclosed, YAML reads on into the next line)" : "");
            case "Floating-point" -> isWhole(value)
                ? value + ", written with a point or an exponent (a whole number is written in digits alone)"
                : "the fractional number " + value;
            case "Integer" -> "the whole number " + value;
            case "Boolean" -> value;
            default -> value;
        };
    }

    /**
     * A scalar where a mapping is wanted ({@code mapping: 7}, a scene file that is one line of text): its kind and
     * value. Jackson names the Java type it looked for a constructor of ("no int/Int-argument constructor").
     */
    private static final java.util.regex.Pattern SCALAR_FOR_MAPPING =
        java.util.regex.Pattern.compile("no [\\w/]+-argument constructor/factory method to deserialize from (\\w+) "
            + "value \\((.*)\\)$");

    /** A YAML integer that would overflow the field's type: the value in group 1, the type's bounds in 2 and 3. */
    private static final java.util.regex.Pattern OUT_OF_RANGE =
        java.util.regex.Pattern.compile("Numeric value \\((.*)\\) out of range of \\w+ \\((-?\\d+) - (-?\\d+)\\)");

    /** What the file has where a mapping is wanted, in the words of {@link #given}. */
    private static String givenForMapping(String kind, String value) {
        return switch (kind) {
            case "String" -> "text " + value;
            case "Number" -> given(value.matches("[-+]?\\d+") ? "Integer" : "Floating-point", value);
            default -> value;
        };
    }

    /**
     * A whole number written with an exponent or a point ({@code 1e12}, {@code 3e9}) that the field's type cannot
     * hold, in the words of {@link #expectedWholeNumberWithin}: it is too large, not fractional. Null otherwise.
     */
    private static String wholeNumberOutOfRange(Class<?> target, String kind, String value) {
        long min;
        long max;
        if (target == int.class || target == Integer.class) {
            min = Integer.MIN_VALUE;
            max = Integer.MAX_VALUE;
        } else if (target == long.class || target == Long.class) {
            min = Long.MIN_VALUE;
            max = Long.MAX_VALUE;
        } else {
            return null;
        }
        if (!"Floating-point".equals(kind)) {
            return null;
        }
        double number;
        try {
            number = Double.parseDouble(value);
        } catch (NumberFormatException notJava) {
            return null;
        }
        // The type holds [min, max + 1) exactly as doubles: 2^31 for an int, and 2^63 for a long (max + 1.0 rounds
        // to it, as max itself does).
        boolean fits = number >= min && number < max + 1.0;
        if (Double.isInfinite(number) || number != Math.rint(number) || fits) {
            return null;
        }
        return expectedWholeNumberWithin(value, Long.toString(min), Long.toString(max));
    }

    /** A whole number beyond its field's type, {@code min} to {@code max}: the bound it passed and the value. */
    private static String expectedWholeNumberWithin(String value, String min, String max) {
        return value.strip().startsWith("-") ? "expected a whole number of at least " + min + ", got " + value
            : "expected a whole number up to " + max + ", got " + value;
    }

    private static Class<?> elementType(String arrayType) {
        return switch (arrayType) {
            case "double[]" -> double.class;
            case "int[]" -> int.class;
            case "boolean[]" -> boolean.class;
            default -> String.class;
        };
    }

    /** YAML's .nan and .inf, which Jackson reads as malformed numbers: the value, quoted, in group 1. */
    private static final java.util.regex.Pattern NON_FINITE =
        java.util.regex.Pattern.compile("Malformed numeric value ('[-+]?\\.(?i:nan|inf)')");

    /** Where the first byte that is not UTF-8 sits, as " (line L, byte offset B)", or "" when unreadable. */
    public static String firstInvalidUtf8(Path file) {
        try {
            byte[] bytes = Files.readAllBytes(file);
            java.nio.charset.CharsetDecoder decoder = java.nio.charset.StandardCharsets.UTF_8.newDecoder();
            java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes);
            java.nio.CharBuffer out = java.nio.CharBuffer.allocate(bytes.length + 1);
            java.nio.charset.CoderResult result = decoder.decode(in, out, true);
            if (!result.isError()) {
                return "";
            }
            int offset = in.position();
            int line = 1;
            for (int i = 0; i < offset; i++) {
                if (bytes[i] == '\n') {
                    line++;
                }
            }
            return String.format(Locale.ROOT, " (line %d, byte offset %d: 0x%02x)", line, offset, bytes[offset] & 0xff);
        } catch (IOException e) {
            return "";
        }
    }

    /** Setter messages start with the field name, which the path already gives. */
    private static String stripFieldPrefix(String message, JsonProcessingException e) {
        int space = message.indexOf(' ');
        if (space <= 0) {
            return message;
        }
        String first = message.substring(0, space).replaceFirst("\\[\\d+]$", "");
        // Only the field's own name: a message may as well begin with a word ("must be ...").
        String field = null;
        if (e instanceof JsonMappingException mapping && !mapping.getPath().isEmpty()) {
            field = mapping.getPath().get(mapping.getPath().size() - 1).getFieldName();
        }
        return first.equals(field) ? message.substring(space + 1) : message;
    }

    private static String describeType(Class<?> type) {
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == int.class || type == Integer.class || type == long.class || type == Long.class) {
            return "a whole number";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type.isArray() || List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (type == String.class) {
            return "text";
        }
        return "a mapping";
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "invalid value";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /** Records where each {@link Located} object starts before its fields are read. */
    private static final class LocatingDeserializer extends DelegatingDeserializer {
        LocatingDeserializer(JsonDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> newDelegatee) {
            return new LocatingDeserializer(newDelegatee);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext context) throws IOException {
            JsonLocation start = p.currentTokenLocation();
            return located(super.deserialize(p, context), start);
        }

        /**
         * A polymorphic value (a shape) arrives here before its type id is read; once the id is read the parser
         * has moved on, possibly past the whole mapping, so the start is taken now and wins over the later one.
         */
        @Override
        public Object deserializeWithType(JsonParser p, DeserializationContext context, TypeDeserializer types)
            throws IOException {
            JsonLocation start = p.currentTokenLocation();
            return located(super.deserializeWithType(p, context, types), start);
        }

        private static Object located(Object value, JsonLocation start) {
            if (value instanceof Located located) {
                located.locate(start.getLineNr(), start.getColumnNr());
            }
            return value;
        }
    }

    /** Remembers where the list just read started and ended, for {@link #describe}. */
    private static final class ListTrackingDeserializer extends DelegatingDeserializer {
        private final ThreadLocal<JsonLocation[]> lastList;

        ListTrackingDeserializer(JsonDeserializer<?> delegate, ThreadLocal<JsonLocation[]> lastList) {
            super(delegate);
            this.lastList = lastList;
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> newDelegatee) {
            return new ListTrackingDeserializer(newDelegatee, lastList);
        }

        @Override
        public Object deserialize(JsonParser p, DeserializationContext context) throws IOException {
            JsonLocation start = p.currentTokenLocation();
            Object value = super.deserialize(p, context);
            JsonLocation[] list = lastList.get();
            list[0] = start;
            list[1] = p.currentTokenLocation();
            return value;
        }
    }
}
