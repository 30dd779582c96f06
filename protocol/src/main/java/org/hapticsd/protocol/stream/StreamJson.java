package org.hapticsd.protocol.stream;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON form of the stream protocol (docs/stream-protocol.md section 6): one JSON object per message with a
 * {@code "type"} field and the binary form's fields, units in the names. For clients that would rather not parse
 * bytes; it carries the same content, so {@code decodeJson(encodeJson(m)).equals(m)} for every message.
 *
 * <p>The tree model rather than databind annotations on the records: the wire names (units, "#rrggbbaa" colours,
 * nested shapes) are then written in one place next to the spec, and the records stay plain data.
 */
public final class StreamJson {
    /** Largest JSON server → client message, UTF-8 bytes; JSON numbers take about 2.5 times their binary size. */
    public static final int MAX_SERVER_JSON_BYTES = 4 << 20;
    /** Largest JSON client → server message, UTF-8 bytes. */
    public static final int MAX_CLIENT_JSON_BYTES = 1 << 16;

    // Big decimals so a float's decimal text is rounded once, to float32, not first to float64; duplicate keys and
    // trailing tokens are malformed, as in the scene loader.
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .build();

    private StreamJson() {
    }

    /** The message as one JSON object, compact (no whitespace). */
    public static String encodeJson(StreamMessage message) {
        Checks.notNull("message", message);
        ObjectNode o = MAPPER.createObjectNode();
        o.put("type", message.type().name());
        if (message instanceof HelloMessage m) {
            o.put("protocolVersion", m.protocolVersion());
            o.put("tickRateHz", m.tickRateHz());
            o.put("serverVersion", m.serverVersion());
        } else if (message instanceof SceneMessage m) {
            writeScene(m, o);
        } else if (message instanceof StateMessage m) {
            writeState(m, o);
        } else if (message instanceof EventsMessage m) {
            ArrayNode events = o.putArray("events");
            for (StreamEvent e : m.events()) {
                writeEvent(e, events.addObject());
            }
        } else if (message instanceof AckMessage m) {
            o.put("commandId", m.commandId());
            o.put("accepted", m.accepted());
            o.put("reason", m.reason());
        } else if (message instanceof SubscribeMessage m) {
            o.put("rateHz", m.rateHz());
        } else if (message instanceof CommandMessage m) {
            writeCommand(m, o);
        } else {
            throw new StreamFormatException("unknown message " + message);
        }
        String text;
        try {
            text = MAPPER.writeValueAsString(o);
        } catch (JsonProcessingException e) {
            throw new StreamFormatException("cannot write " + message.type() + " as JSON", e);
        }
        int max = maxJsonBytes(message.type().serverToClient());
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > max) {
            throw new StreamFormatException(message.type() + " is " + bytes + " bytes of JSON, more than " + max);
        }
        return text;
    }

    /**
     * The parser's message in this protocol's terms: Jackson ends some with advice on its own settings ("enable
     * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow"), which a client cannot act on. A bare NaN or Infinity
     * gets the form this protocol does accept (docs/stream-protocol.md section 6: the strings "NaN", "Infinity",
     * "-Infinity").
     */
    static String parserMessage(String message) {
        String text = message == null ? "unreadable input" : message;
        int advice = text.indexOf(": enable `");
        if (advice >= 0) {
            text = text.substring(0, advice);
        }
        if (text.startsWith("Non-standard token")) {
            text += " (a non-finite number is written as the string \"NaN\", \"Infinity\" or \"-Infinity\")";
        }
        return text;
    }

    /** Parses one JSON message. Throws only {@link StreamFormatException}, for any input. */
    public static StreamMessage decodeJson(String text) {
        if (text == null) {
            throw new StreamFormatException("no message (null)");
        }
        // Characters never outnumber UTF-8 bytes, so this refuses nothing the byte limit allows, and it is checked
        // before parsing so an oversized input costs no parse.
        if (text.length() > MAX_SERVER_JSON_BYTES) {
            throw new StreamFormatException("JSON message of " + text.length() + " characters is over the limit");
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new StreamFormatException("invalid JSON: " + parserMessage(e.getOriginalMessage()), e);
        } catch (NumberFormatException e) {
            // Jackson reads a number whose exponent overflows BigDecimal (12E3456000000) and throws this rather
            // than a JsonProcessingException; found by StreamDecoderFuzzTest.
            throw new StreamFormatException("invalid JSON number: " + e.getMessage(), e);
        }
        JsonObject o = new JsonObject(root, "");
        String typeName = o.string("type");
        StreamMessageType type;
        try {
            type = StreamMessageType.valueOf(typeName);
        } catch (IllegalArgumentException e) {
            throw new StreamFormatException("type \"" + typeName + "\" is not a message type", e);
        }
        if (!type.serverToClient() && text.getBytes(StandardCharsets.UTF_8).length > MAX_CLIENT_JSON_BYTES) {
            throw new StreamFormatException(type + " JSON is over the " + MAX_CLIENT_JSON_BYTES + "-byte limit");
        }
        StreamMessage m = switch (type) {
            case HELLO -> new HelloMessage((int) o.integer("protocolVersion", 255), (int) o.integer("tickRateHz",
                0xFFFF), o.string("serverVersion"));
            case SCENE -> readScene(o);
            case STATE -> readState(o);
            case EVENTS -> readEvents(o);
            case ACK -> new AckMessage(o.integer("commandId", 0xFFFF_FFFFL), o.bool("accepted"), o.string("reason"));
            case SUBSCRIBE -> new SubscribeMessage((int) o.integer("rateHz", 0xFFFF));
            case COMMAND -> readCommand(o);
        };
        o.finish();
        return m;
    }

    /** The JSON size limit for messages of this direction. */
    public static int maxJsonBytes(boolean serverToClient) {
        return serverToClient ? MAX_SERVER_JSON_BYTES : MAX_CLIENT_JSON_BYTES;
    }

    // ---- writing --------------------------------------------------------------------------------------------

    private static void vec(ObjectNode o, String field, Vec3 v) {
        o.putArray(field).add(v.x()).add(v.y()).add(v.z());
    }

    private static void quat(ObjectNode o, String field, Quat q) {
        o.putArray(field).add(q.w()).add(q.x()).add(q.y()).add(q.z());
    }

    private static void writeScene(SceneMessage m, ObjectNode o) {
        o.put("revision", m.revision());
        o.put("name", m.name());
        o.put("toolRadiusM", m.toolRadiusM());
        ArrayNode bodies = o.putArray("bodies");
        for (Body b : m.bodies()) {
            ObjectNode j = bodies.addObject();
            j.put("id", b.id());
            j.put("name", b.name());
            j.put("motion", b.motion().name());
            j.put("materialName", b.materialName());
            j.put("colourRgba", String.format("#%08x", b.colourRgba()));
            vec(j, "positionM", b.positionM());
            quat(j, "orientation", b.orientation());
            writeShape(b.shape(), j.putObject("shape"));
        }
    }

    private static void writeShape(Shape shape, ObjectNode j) {
        if (shape instanceof Shape.Sphere s) {
            j.put("type", "SPHERE");
            j.put("radiusM", s.radiusM());
        } else if (shape instanceof Shape.Box s) {
            j.put("type", "BOX");
            vec(j, "halfExtentsM", s.halfExtentsM());
        } else if (shape instanceof Shape.Capsule s) {
            j.put("type", "CAPSULE");
            j.put("radiusM", s.radiusM());
            j.put("halfHeightM", s.halfHeightM());
        } else if (shape instanceof Shape.Plane s) {
            j.put("type", "PLANE");
            vec(j, "normal", s.normal());
            j.put("offsetM", s.offsetM());
        } else if (shape instanceof Shape.ConvexHull s) {
            j.put("type", "CONVEX_HULL");
            writeVertices(j, s.verticesM());
        } else if (shape instanceof Shape.Deformable s) {
            j.put("type", "DEFORMABLE");
            float[] nodes = s.nodesM();
            ArrayNode nodesM = j.putArray("nodesM");
            for (int i = 0; i < nodes.length; i += 3) {
                nodesM.addArray().add(nodes[i]).add(nodes[i + 1]).add(nodes[i + 2]);
            }
            ArrayNode edges = j.putArray("edges");
            int[] e = s.edges();
            for (int i = 0; i < e.length; i += 2) {
                edges.addArray().add(e[i]).add(e[i + 1]);
            }
            ArrayNode triangles = j.putArray("triangles");
            int[] t = s.triangles();
            for (int i = 0; i < t.length; i += 3) {
                triangles.addArray().add(t[i]).add(t[i + 1]).add(t[i + 2]);
            }
        } else if (shape instanceof Shape.TriangleMesh s) {
            j.put("type", "TRIANGLE_MESH");
            writeVertices(j, s.verticesM());
            ArrayNode triangles = j.putArray("triangles");
            int[] idx = s.indices();
            for (int i = 0; i < idx.length; i += 3) {
                triangles.addArray().add(idx[i]).add(idx[i + 1]).add(idx[i + 2]);
            }
        } else {
            throw new StreamFormatException("unknown shape " + shape);
        }
    }

    private static void writeVertices(ObjectNode j, float[] v) {
        ArrayNode vertices = j.putArray("verticesM");
        for (int i = 0; i < v.length; i += 3) {
            vertices.addArray().add(v[i]).add(v[i + 1]).add(v[i + 2]);
        }
    }

    private static void writeState(StateMessage m, ObjectNode o) {
        o.put("tick", m.tick());
        o.put("simTimeNs", m.simTimeNs());
        o.put("sceneRevision", m.sceneRevision());
        o.put("safetyState", m.safetyState().name());
        o.put("safetyFault", m.safetyFault().name());
        o.put("deviceConnected", m.deviceConnected());
        o.put("paused", m.paused());
        vec(o, "devicePositionM", m.devicePositionM());
        vec(o, "toolPositionM", m.toolPositionM());
        vec(o, "renderedForceN", m.renderedForceN());
        vec(o, "commandedForceN", m.commandedForceN());
        ObjectNode loop = o.putObject("loop");
        loop.put("achievedRateHz", m.loop().achievedRateHz());
        loop.put("periodErrorP99Ns", m.loop().periodErrorP99Ns());
        loop.put("tickTimeP99Ns", m.loop().tickTimeP99Ns());
        loop.put("overruns", m.loop().overruns());
        loop.put("physicsOverBudget", m.loop().physicsOverBudget());
        loop.put("physicsLoadPercent", m.loop().physicsLoadPercent());
        ArrayNode poses = o.putArray("poses");
        for (BodyPose p : m.poses()) {
            ObjectNode j = poses.addObject();
            j.put("bodyId", p.bodyId());
            vec(j, "positionM", p.positionM());
            quat(j, "orientation", p.orientation());
        }
        ArrayNode contacts = o.putArray("contacts");
        for (ContactPoint c : m.contacts()) {
            ObjectNode j = contacts.addObject();
            j.put("bodyA", c.bodyA());
            j.put("bodyB", c.bodyB());
            vec(j, "pointM", c.pointM());
            vec(j, "normal", c.normal());
            vec(j, "forceN", c.forceN());
            j.put("depthM", c.depthM());
        }
        ArrayNode deformables = o.putArray("deformables");
        for (DeformableNodes d : m.deformables()) {
            ObjectNode j = deformables.addObject();
            j.put("bodyId", d.bodyId());
            float[] p = d.positionsM();
            ArrayNode positions = j.putArray("nodePositionsM");
            for (int i = 0; i < p.length; i += 3) {
                positions.addArray().add(p[i]).add(p[i + 1]).add(p[i + 2]);
            }
        }
    }

    private static void writeEvent(StreamEvent e, ObjectNode j) {
        j.put("tick", e.tick());
        j.put("kind", EventKind.of(e).name());
        if (e instanceof StreamEvent.ContactBegan c) {
            j.put("bodyA", c.bodyA());
            j.put("bodyB", c.bodyB());
        } else if (e instanceof StreamEvent.ContactEnded c) {
            j.put("bodyA", c.bodyA());
            j.put("bodyB", c.bodyB());
        } else if (e instanceof StreamEvent.Impact c) {
            j.put("bodyA", c.bodyA());
            j.put("bodyB", c.bodyB());
            j.put("impulseNewtonSeconds", c.impulseNewtonSeconds());
        } else if (e instanceof StreamEvent.SafetyChanged c) {
            j.put("from", c.from().name());
            j.put("to", c.to().name());
            j.put("fault", c.fault().name());
        } else if (e instanceof StreamEvent.PhysicsOverBudget c) {
            j.put("stepP99Ns", c.stepP99Ns());
            j.put("budgetNs", c.budgetNs());
        } else if (e instanceof StreamEvent.PhysicsWithinBudget c) {
            j.put("stepP99Ns", c.stepP99Ns());
            j.put("budgetNs", c.budgetNs());
        } else if (e instanceof StreamEvent.ContactsDropped c) {
            j.put("droppedPairs", c.droppedPairs());
            j.put("droppedPoints", c.droppedPoints());
        } else if (e instanceof StreamEvent.ImpulseCollision c) {
            j.put("bodyA", c.bodyA());
            j.put("bodyB", c.bodyB());
            j.put("mode", c.mode().name());
            j.put("impulseNewtonSeconds", c.impulseNewtonSeconds());
            j.put("heightN", c.heightN());
            j.put("durationS", c.durationS());
            j.put("elasticity", c.elasticity());
        }
    }

    private static void writeCommand(CommandMessage m, ObjectNode o) {
        o.put("commandId", m.commandId());
        o.put("authToken", m.authToken());
        o.put("command", CommandKind.of(m.command()).name());
        if (m.command() instanceof Command.LoadScene c) {
            o.put("sceneName", c.sceneName());
        } else if (m.command() instanceof Command.SetParameter c) {
            o.put("name", c.name());
            o.put("value", c.value());
        } else if (m.command() instanceof Command.MoveHand c) {
            o.put("x", c.xM());
            o.put("y", c.yM());
            o.put("z", c.zM());
        }
    }

    // ---- reading --------------------------------------------------------------------------------------------

    private static <E extends Enum<E>> E name(JsonObject o, String field, Class<E> type) {
        String s = o.string(field);
        try {
            return Enum.valueOf(type, s);
        } catch (IllegalArgumentException e) {
            // The names a client may send, not the Java type's: "command \"X\" is not one of ESTOP, ...".
            String names = java.util.Arrays.stream(type.getEnumConstants()).map(Enum::name)
                .collect(java.util.stream.Collectors.joining(", "));
            throw new StreamFormatException(field + " \"" + s + "\" is not one of " + names, e);
        }
    }

    private static List<JsonObject> objects(JsonObject o, String field, int max) {
        JsonNode a = o.array(field, 0, max);
        List<JsonObject> out = new ArrayList<>(a.size());
        for (int i = 0; i < a.size(); i++) {
            out.add(new JsonObject(a.get(i), (o.path().isEmpty() ? "" : o.path() + ".") + field + "[" + i + "]"));
        }
        return out;
    }

    private static int bodyOrTool(JsonObject o, String field) {
        return (int) o.integer(field, StreamProtocol.TOOL_ID);
    }

    private static SceneMessage readScene(JsonObject o) {
        long revision = o.integer("revision", 0xFFFF_FFFFL);
        String name = o.string("name");
        float toolRadiusM = o.f32("toolRadiusM");
        List<Body> bodies = new ArrayList<>();
        for (JsonObject j : objects(o, "bodies", StreamProtocol.MAX_BODIES)) {
            int id = (int) j.integer("id", StreamProtocol.TOOL_ID - 1);
            String colour = j.string("colourRgba");
            if (!colour.matches("#[0-9a-fA-F]{8}")) {
                throw new StreamFormatException(j.path() + ".colourRgba must be \"#rrggbbaa\", was \"" + colour
                    + "\"");
            }
            int rgba = Integer.parseUnsignedInt(colour.substring(1), 16);
            JsonObject shapeJson = j.object("shape");
            Body b = new Body(id, j.string("name"), name(j, "motion", Motion.class), readShape(shapeJson),
                j.string("materialName"), rgba, j.vec("positionM"), j.quat("orientation"));
            shapeJson.finish();
            j.finish();
            bodies.add(b);
        }
        return new SceneMessage(revision, name, toolRadiusM, bodies);
    }

    private static Shape readShape(JsonObject j) {
        String type = j.string("type");
        switch (type) {
            case "SPHERE":
                return new Shape.Sphere(j.f32("radiusM"));
            case "BOX":
                return new Shape.Box(j.vec("halfExtentsM"));
            case "CAPSULE":
                return new Shape.Capsule(j.f32("radiusM"), j.f32("halfHeightM"));
            case "PLANE":
                return new Shape.Plane(j.vec("normal"), j.f32("offsetM"));
            case "CONVEX_HULL":
                return new Shape.ConvexHull(readTriples(j, "verticesM", 1, StreamProtocol.MAX_HULL_VERTICES));
            case "TRIANGLE_MESH": {
                float[] vertices = readTriples(j, "verticesM", 1, StreamProtocol.MAX_MESH_VERTICES);
                JsonNode t = j.array("triangles", 0, StreamProtocol.MAX_MESH_TRIANGLES);
                int[] indices = new int[3 * t.size()];
                for (int i = 0; i < t.size(); i++) {
                    String label = j.path() + ".triangles[" + i + "]";
                    JsonNode tri = JsonObject.array(t.get(i), label, 3, 3);
                    for (int k = 0; k < 3; k++) {
                        indices[3 * i + k] = (int) JsonObject.integer(tri.get(k), label + "[" + k + "]",
                            vertices.length / 3 - 1);
                    }
                }
                return new Shape.TriangleMesh(vertices, indices);
            }
            case "DEFORMABLE": {
                float[] nodes = readTriples(j, "nodesM", 1, StreamProtocol.MAX_DEFORMABLE_NODES);
                int n = nodes.length / 3;
                return new Shape.Deformable(nodes, readIndexTuples(j, "edges", 2, n),
                    readIndexTuples(j, "triangles", 3, n));
            }
            default:
                throw new StreamFormatException(j.path() + ".type \"" + type + "\" is not a shape type");
        }
    }

    /** An array of index tuples of {@code width} entries, each below {@code nodes}. */
    private static int[] readIndexTuples(JsonObject j, String field, int width, int nodes) {
        JsonNode a = j.array(field, 0, StreamProtocol.MAX_DEFORMABLE_ELEMENTS);
        int[] out = new int[width * a.size()];
        for (int i = 0; i < a.size(); i++) {
            String label = j.path() + "." + field + "[" + i + "]";
            JsonNode t = JsonObject.array(a.get(i), label, width, width);
            for (int k = 0; k < width; k++) {
                out[width * i + k] = (int) JsonObject.integer(t.get(k), label + "[" + k + "]", nodes - 1);
            }
        }
        return out;
    }

    private static float[] readTriples(JsonObject j, String field, int min, int max) {
        JsonNode a = j.array(field, min, max);
        float[] out = new float[3 * a.size()];
        for (int i = 0; i < a.size(); i++) {
            String label = j.path() + "." + field + "[" + i + "]";
            JsonNode v = JsonObject.array(a.get(i), label, 3, 3);
            for (int k = 0; k < 3; k++) {
                out[3 * i + k] = JsonObject.f32(v.get(k), label + "[" + k + "]");
            }
        }
        return out;
    }

    private static StateMessage readState(JsonObject o) {
        JsonObject loopJson = o.object("loop");
        LoopStats loop = new LoopStats(loopJson.f32("achievedRateHz"), loopJson.integer("periodErrorP99Ns",
            0xFFFF_FFFFL), loopJson.integer("tickTimeP99Ns", 0xFFFF_FFFFL), loopJson.integer("overruns",
            0xFFFF_FFFFL), loopJson.bool("physicsOverBudget"), (int) loopJson.integer("physicsLoadPercent", 0xFF));
        loopJson.finish();
        List<BodyPose> poses = new ArrayList<>();
        for (JsonObject j : objects(o, "poses", StreamProtocol.MAX_POSES)) {
            poses.add(new BodyPose((int) j.integer("bodyId", StreamProtocol.TOOL_ID - 1), j.vec("positionM"),
                j.quat("orientation")));
            j.finish();
        }
        List<ContactPoint> contacts = new ArrayList<>();
        for (JsonObject j : objects(o, "contacts", StreamProtocol.MAX_CONTACTS)) {
            contacts.add(new ContactPoint(bodyOrTool(j, "bodyA"), bodyOrTool(j, "bodyB"), j.vec("pointM"),
                j.vec("normal"), j.vec("forceN"), j.f32("depthM")));
            j.finish();
        }
        List<DeformableNodes> deformables = new ArrayList<>();
        for (JsonObject j : objects(o, "deformables", StreamProtocol.MAX_DEFORMABLES)) {
            deformables.add(new DeformableNodes((int) j.integer("bodyId", StreamProtocol.TOOL_ID - 1),
                readTriples(j, "nodePositionsM", 1, StreamProtocol.MAX_DEFORMABLE_NODES)));
            j.finish();
        }
        return new StateMessage(o.integer("tick", Long.MAX_VALUE), o.integer("simTimeNs", Long.MAX_VALUE),
            o.integer("sceneRevision", 0xFFFF_FFFFL), name(o, "safetyState", SafetyCode.class),
            name(o, "safetyFault", FaultCode.class), o.bool("deviceConnected"), o.bool("paused"),
            o.vec("devicePositionM"), o.vec("toolPositionM"), o.vec("renderedForceN"), o.vec("commandedForceN"),
            loop, poses, contacts, deformables);
    }

    private static EventsMessage readEvents(JsonObject o) {
        List<StreamEvent> events = new ArrayList<>();
        for (JsonObject j : objects(o, "events", StreamProtocol.MAX_EVENTS)) {
            long tick = j.integer("tick", Long.MAX_VALUE);
            events.add(switch (name(j, "kind", EventKind.class)) {
                case CONTACT_BEGAN -> new StreamEvent.ContactBegan(tick, bodyOrTool(j, "bodyA"), bodyOrTool(j, "bodyB"));
                case CONTACT_ENDED -> new StreamEvent.ContactEnded(tick, bodyOrTool(j, "bodyA"), bodyOrTool(j, "bodyB"));
                case IMPACT -> new StreamEvent.Impact(tick, bodyOrTool(j, "bodyA"), bodyOrTool(j, "bodyB"),
                    j.f32("impulseNewtonSeconds"));
                case SAFETY_CHANGED -> new StreamEvent.SafetyChanged(tick, name(j, "from", SafetyCode.class),
                    name(j, "to", SafetyCode.class), name(j, "fault", FaultCode.class));
                case DEVICE_CONNECTED -> new StreamEvent.DeviceConnected(tick);
                case DEVICE_DISCONNECTED -> new StreamEvent.DeviceDisconnected(tick);
                case PHYSICS_OVER_BUDGET -> new StreamEvent.PhysicsOverBudget(tick,
                    j.integer("stepP99Ns", 0xFFFF_FFFFL), j.integer("budgetNs", 0xFFFF_FFFFL));
                case PHYSICS_WITHIN_BUDGET -> new StreamEvent.PhysicsWithinBudget(tick,
                    j.integer("stepP99Ns", 0xFFFF_FFFFL), j.integer("budgetNs", 0xFFFF_FFFFL));
                case CONTACTS_DROPPED -> new StreamEvent.ContactsDropped(tick,
                    j.integer("droppedPairs", 0xFFFF_FFFFL), j.integer("droppedPoints", 0xFFFF_FFFFL));
                case IMPULSE_COLLISION -> new StreamEvent.ImpulseCollision(tick, bodyOrTool(j, "bodyA"),
                    bodyOrTool(j, "bodyB"), name(j, "mode", ContactModeCode.class), j.f32("impulseNewtonSeconds"),
                    j.f32("heightN"), j.f32("durationS"), j.f32("elasticity"));
            });
            j.finish();
        }
        return new EventsMessage(events);
    }

    private static Command moveHand(double xM, double yM, double zM) {
        if (!Double.isFinite(xM) || !Double.isFinite(yM) || !Double.isFinite(zM)) {
            throw new StreamFormatException("MOVE_HAND position must be finite");
        }
        return new Command.MoveHand(xM, yM, zM);
    }

    private static CommandMessage readCommand(JsonObject o) {
        long id = o.integer("commandId", 0xFFFF_FFFFL);
        String token = o.string("authToken");
        Command command = switch (name(o, "command", CommandKind.class)) {
            case PAUSE -> new Command.Pause();
            case RESUME -> new Command.Resume();
            case RESET_SCENE -> new Command.ResetScene();
            case LOAD_SCENE -> new Command.LoadScene(o.string("sceneName"));
            case EMERGENCY_STOP -> new Command.EmergencyStop();
            case RESET_STOP -> new Command.ResetStop();
            case SET_PARAMETER -> new Command.SetParameter(o.string("name"), o.f64("value"));
            case MOVE_HAND -> moveHand(o.f64("x"), o.f64("y"), o.f64("z"));
        };
        return new CommandMessage(id, token, command);
    }

    /** JSON names of the event kinds, in code order (code = ordinal + 1). */
    enum EventKind {
        CONTACT_BEGAN, CONTACT_ENDED, IMPACT, SAFETY_CHANGED, DEVICE_CONNECTED, DEVICE_DISCONNECTED,
        PHYSICS_OVER_BUDGET, PHYSICS_WITHIN_BUDGET, CONTACTS_DROPPED, IMPULSE_COLLISION;

        static EventKind of(StreamEvent e) {
            return values()[e.code() - 1];
        }
    }

    /** JSON names of the command kinds, in code order (code = ordinal + 1). */
    enum CommandKind {
        PAUSE, RESUME, RESET_SCENE, LOAD_SCENE, EMERGENCY_STOP, RESET_STOP, SET_PARAMETER, MOVE_HAND;

        static CommandKind of(Command c) {
            return values()[c.code() - 1];
        }
    }
}
