package org.hapticsd.server.scene;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
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
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads a YAML scene file into a {@link SceneSpec}, or fails with one line that names the file, the line and
 * column, the field path and the problem, e.g. {@code scenes/x.yaml:12:20: contact.stiffnessNpm: must be > 0}.
 */
public final class SceneLoader {
    /** Name used in messages for the scene built into the server. */
    public static final String EMBEDDED_NAME = "<embedded wall.yaml>";
    private static final String EMBEDDED_RESOURCE = "/scenes/wall.yaml";

    private final ObjectMapper mapper;

    public SceneLoader() {
        SimpleModule locating = new SimpleModule("scene-locations");
        locating.setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription description,
                                                          JsonDeserializer<?> deserializer) {
                if (Located.class.isAssignableFrom(description.getBeanClass())) {
                    return new LocatingDeserializer(deserializer);
                }
                return deserializer;
            }
        });
        this.mapper = JsonMapper.builder(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .addModule(locating)
            .build();
    }

    /** Loads and checks a scene file. */
    public SceneSpec load(Path file) throws SceneException {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new SceneException(file + ": scene file not found");
        } catch (IOException e) {
            throw new SceneException(file + ": cannot read scene file: " + e.getMessage(), e);
        }
        return parse(file.toString(), new StringReader(text));
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
        try {
            spec = mapper.readValue(text, SceneSpec.class);
        } catch (JsonProcessingException e) {
            throw new SceneException(describe(source, e), e);
        } catch (IOException e) {
            throw new SceneException(source + ": cannot read scene: " + e.getMessage(), e);
        }
        if (spec == null) {
            throw new SceneException(source + ": scene file is empty");
        }
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
                throw error(source, body, at + ".shape", "missing (type sphere, plane or box)");
            }
            String missing = body.shape().missingField();
            if (missing != null) {
                throw error(source, body.shape(), at + ".shape." + missing, "missing");
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
    }

    private static SceneException error(String source, Located where, String field, String problem) {
        return new SceneException(source + ":" + where.line() + ":" + where.column() + ": " + field + ": " + problem);
    }

    /** One line from a Jackson failure: location, field path and the most useful part of the reason. */
    static String describe(String source, JsonProcessingException e) {
        StringBuilder out = new StringBuilder(source);
        JsonLocation location = e.getLocation();
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
            return "unknown type '" + badType.getTypeId() + "' (expected sphere, plane or box)";
        }
        Throwable cause = e.getCause();
        if (cause instanceof IllegalArgumentException && cause.getMessage() != null) {
            return stripFieldPrefix(cause.getMessage());
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            Class<?> target = mismatch.getTargetType();
            return "expected " + describeType(target) + ": " + firstLine(e.getOriginalMessage());
        }
        return firstLine(e.getOriginalMessage());
    }

    /** Setter messages start with the field name, which the path already gives. */
    private static String stripFieldPrefix(String message) {
        int space = message.indexOf(' ');
        if (space > 0 && message.substring(0, space).matches("[A-Za-z]+(\\[\\d+])?")) {
            return message.substring(space + 1);
        }
        return message;
    }

    private static String describeType(Class<?> type) {
        if (type == double.class || type == Double.class) {
            return "a number";
        }
        if (type == int.class || type == Integer.class) {
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
            Object value = super.deserialize(p, context);
            if (value instanceof Located located) {
                located.locate(start.getLineNr(), start.getColumnNr());
            }
            return value;
        }
    }
}
