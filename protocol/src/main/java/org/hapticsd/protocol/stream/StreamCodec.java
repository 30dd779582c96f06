package org.hapticsd.protocol.stream;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of the stream protocol (docs/stream-protocol.md sections 3 to 5). One call encodes or decodes
 * one whole message; framing (WebSocket message or TCP length prefix) is the transport's job.
 *
 * <pre>
 * offset size type field
 * 0      1    u8   version   = {@value StreamProtocol#VERSION}
 * 1      1    u8   type      {@link StreamMessageType} code
 * 2      2    u16  reserved  0 when sent, ignored when received
 * 4      n         payload   layout fixed by type
 * </pre>
 *
 * <p>Stateless and thread-safe. Decoding throws only {@link StreamFormatException}, for any input.
 */
public final class StreamCodec {
    private StreamCodec() {
    }

    /** Exact size of the message's binary form, header included. */
    public static int encodedSize(StreamMessage message) {
        WireWriter counter = new WireWriter(null);
        write(message, counter);
        return counter.count();
    }

    /** The message's binary form, header included. */
    public static byte[] encode(StreamMessage message) {
        int size = checkedSize(message);
        byte[] out = new byte[size];
        write(message, new WireWriter(ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN)));
        return out;
    }

    /**
     * Writes the message at {@code dst.position()} and advances the position past it; the buffer's byte order is
     * left as it was. Nothing is written if it does not fit.
     *
     * @return bytes written
     * @throws StreamFormatException if {@code dst.remaining()} is less than {@link #encodedSize} or the message is
     *                               over its direction's size limit
     */
    public static int encode(StreamMessage message, ByteBuffer dst) {
        int size = checkedSize(message);
        if (dst.remaining() < size) {
            throw new StreamFormatException(message.type() + " needs " + size + " bytes, buffer has "
                + dst.remaining());
        }
        ByteBuffer view = dst.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        write(message, new WireWriter(view));
        dst.position(dst.position() + size);
        return size;
    }

    /** Decodes one whole message: the array is exactly one message. */
    public static StreamMessage decode(byte[] message) {
        if (message == null) {
            throw new StreamFormatException("no message (null)");
        }
        return decode(message, 0, message.length);
    }

    /** Decodes the message in {@code bytes[offset, offset + length)}. */
    public static StreamMessage decode(byte[] bytes, int offset, int length) {
        if (bytes == null || offset < 0 || length < 0 || offset > bytes.length - length) {
            throw new StreamFormatException("no message in the given range");
        }
        return read(new WireReader(bytes, offset, length));
    }

    /**
     * Decodes the bytes between {@code src.position()} and {@code src.limit()} as one message and, on success, moves
     * the position to the limit. On failure the position is unchanged.
     */
    public static StreamMessage decode(ByteBuffer src) {
        if (src == null) {
            throw new StreamFormatException("no message (null)");
        }
        StreamMessage m;
        if (src.hasArray()) {
            m = decode(src.array(), src.arrayOffset() + src.position(), src.remaining());
        } else {
            byte[] copy = new byte[src.remaining()];
            src.duplicate().get(copy);
            m = decode(copy);
        }
        src.position(src.limit());
        return m;
    }

    private static int checkedSize(StreamMessage message) {
        Checks.notNull("message", message);
        int size = encodedSize(message);
        int max = StreamProtocol.maxMessageBytes(message.type().serverToClient());
        if (size > max) {
            throw new StreamFormatException(message.type() + " is " + size + " bytes, more than the " + max
                + "-byte limit for its direction");
        }
        return size;
    }

    // ---- encoding -------------------------------------------------------------------------------------------

    /** The 4-byte header: version, type, reserved. */
    static void writeHeader(StreamMessageType type, WireWriter w) {
        w.u8(StreamProtocol.VERSION);
        w.u8(type.code());
        w.u16(0);
    }

    private static void write(StreamMessage message, WireWriter w) {
        if (message instanceof StateMessage m) {
            // The header is the encoder's too: a STATE is written by its field-by-field encoder, one layout for both.
            StateEncoder.write(m, w);
            return;
        }
        writeHeader(message.type(), w);
        if (message instanceof HelloMessage m) {
            w.u8(m.protocolVersion());
            w.u8(0);
            w.u16(m.tickRateHz());
            w.str("serverVersion", m.serverVersion());
        } else if (message instanceof SceneMessage m) {
            writeScene(m, w);
        } else if (message instanceof EventsMessage m) {
            w.u16(m.events().size());
            for (StreamEvent e : m.events()) {
                writeEvent(e, w);
            }
        } else if (message instanceof AckMessage m) {
            w.u32(m.commandId());
            w.u8(m.accepted() ? 1 : 0);
            w.str("reason", m.reason());
        } else if (message instanceof SubscribeMessage m) {
            w.u16(m.rateHz());
        } else if (message instanceof CommandMessage m) {
            w.u32(m.commandId());
            w.u8(m.command().code());
            w.str("authToken", m.authToken());
            if (m.command() instanceof Command.LoadScene c) {
                w.str("sceneName", c.sceneName());
            } else if (m.command() instanceof Command.SetParameter c) {
                w.str("parameter name", c.name());
                w.f64(c.value());
            } else if (m.command() instanceof Command.MoveHand c) {
                w.f64(c.xM());
                w.f64(c.yM());
                w.f64(c.zM());
            }
        } else {
            throw new StreamFormatException("unknown message " + message);
        }
    }

    private static void writeScene(SceneMessage m, WireWriter w) {
        w.u32(m.revision());
        w.f32(m.toolRadiusM());
        w.str("scene name", m.name());
        w.u16(m.bodies().size());
        for (Body b : m.bodies()) {
            w.u16(b.id());
            w.u8(b.motion().code());
            w.u8(b.shape().code());
            // Colour as four bytes r, g, b, a in reading order, not as a little-endian u32, so a hex dump shows
            // the same digits as 0xRRGGBBAA.
            w.u8(b.colourRgba() >>> 24);
            w.u8(b.colourRgba() >>> 16 & 0xFF);
            w.u8(b.colourRgba() >>> 8 & 0xFF);
            w.u8(b.colourRgba() & 0xFF);
            w.vec(b.positionM());
            w.quat(b.orientation());
            w.str("body name", b.name());
            w.str("materialName", b.materialName());
            writeShape(b.shape(), w);
        }
    }

    private static void writeShape(Shape shape, WireWriter w) {
        if (shape instanceof Shape.Sphere s) {
            w.f32(s.radiusM());
        } else if (shape instanceof Shape.Box s) {
            w.vec(s.halfExtentsM());
        } else if (shape instanceof Shape.Capsule s) {
            w.f32(s.radiusM());
            w.f32(s.halfHeightM());
        } else if (shape instanceof Shape.Plane s) {
            w.vec(s.normal());
            w.f32(s.offsetM());
        } else if (shape instanceof Shape.ConvexHull s) {
            w.u16(s.vertexCount());
            for (int i = 0; i < 3 * s.vertexCount(); i++) {
                w.f32(s.vertexComponent(i));
            }
        } else if (shape instanceof Shape.Deformable s) {
            w.u16(s.nodeCount());
            w.u32(s.edgeCount());
            w.u32(s.triangleCount());
            for (int i = 0; i < 3 * s.nodeCount(); i++) {
                w.f32(s.nodeComponent(i));
            }
            for (int i = 0; i < 2 * s.edgeCount(); i++) {
                w.u16(s.edgeIndex(i));
            }
            for (int i = 0; i < 3 * s.triangleCount(); i++) {
                w.u16(s.triangleIndex(i));
            }
        } else if (shape instanceof Shape.TriangleMesh s) {
            w.u16(s.vertexCount());
            w.u32(s.triangleCount());
            for (int i = 0; i < 3 * s.vertexCount(); i++) {
                w.f32(s.vertexComponent(i));
            }
            for (int i = 0; i < 3 * s.triangleCount(); i++) {
                w.u16(s.index(i));
            }
        } else {
            throw new StreamFormatException("unknown shape " + shape);
        }
    }

    private static void writeEvent(StreamEvent e, WireWriter w) {
        w.u64(e.tick());
        w.u8(e.code());
        if (e instanceof StreamEvent.ContactBegan c) {
            w.u16(c.bodyA());
            w.u16(c.bodyB());
        } else if (e instanceof StreamEvent.ContactEnded c) {
            w.u16(c.bodyA());
            w.u16(c.bodyB());
        } else if (e instanceof StreamEvent.Impact c) {
            w.u16(c.bodyA());
            w.u16(c.bodyB());
            w.f32(c.impulseNewtonSeconds());
        } else if (e instanceof StreamEvent.SafetyChanged c) {
            w.u8(c.from().code());
            w.u8(c.to().code());
            w.u8(c.fault().code());
        } else if (e instanceof StreamEvent.PhysicsOverBudget c) {
            w.u32(c.stepP99Ns());
            w.u32(c.budgetNs());
        } else if (e instanceof StreamEvent.PhysicsWithinBudget c) {
            w.u32(c.stepP99Ns());
            w.u32(c.budgetNs());
        } else if (e instanceof StreamEvent.ContactsDropped c) {
            w.u32(c.droppedPairs());
            w.u32(c.droppedPoints());
        } else if (e instanceof StreamEvent.ImpulseCollision c) {
            w.u16(c.bodyA());
            w.u16(c.bodyB());
            w.u8(c.mode().code());
            w.f32(c.impulseNewtonSeconds());
            w.f32(c.heightN());
            w.f32(c.durationS());
            w.f32(c.elasticity());
        } else if (!(e instanceof StreamEvent.DeviceConnected || e instanceof StreamEvent.DeviceDisconnected)) {
            // Device events are their kind alone; anything else is not an event of this version.
            throw new StreamFormatException("unknown event " + e);
        }
    }

    // ---- decoding -------------------------------------------------------------------------------------------

    private static StreamMessage read(WireReader r) {
        int version = r.u8("header version");
        if (version != StreamProtocol.VERSION) {
            throw new StreamFormatException("unsupported protocol version " + version + " at offset 0");
        }
        int code = r.u8("header type");
        StreamMessageType type = StreamMessageType.fromCode(code);
        if (type == null) {
            throw new StreamFormatException(String.format("unknown message type 0x%02x at offset 1", code));
        }
        r.u16("header reserved");
        int max = StreamProtocol.maxMessageBytes(type.serverToClient());
        if (r.remaining() + StreamProtocol.HEADER_BYTES > max) {
            throw new StreamFormatException(type + " of " + (r.remaining() + StreamProtocol.HEADER_BYTES)
                + " bytes is over the " + max + "-byte limit");
        }
        StreamMessage m = switch (type) {
            case HELLO -> readHello(r);
            case SCENE -> readScene(r);
            case STATE -> readState(r);
            case EVENTS -> readEvents(r);
            case ACK -> new AckMessage(r.u32("commandId"), r.bool("accepted"), r.str("reason"));
            case SUBSCRIBE -> new SubscribeMessage(r.u16("rateHz"));
            case COMMAND -> readCommand(r);
        };
        if (r.remaining() != 0) {
            throw new StreamFormatException(r.remaining() + " bytes after the end of " + type + " at offset "
                + r.offset());
        }
        return m;
    }

    private static HelloMessage readHello(WireReader r) {
        int at = r.offset();
        int protocolVersion = r.u8("protocolVersion");
        if (protocolVersion == 0) {
            throw new StreamFormatException("protocolVersion at offset " + at + " is 0");
        }
        r.u8("reserved");
        return new HelloMessage(protocolVersion, r.u16("tickRateHz"), r.str("serverVersion"));
    }

    /** Smallest body: 36 fixed bytes, two empty strings (2 + 2) and a sphere (4). */
    private static final int MIN_BODY_BYTES = 44;

    private static SceneMessage readScene(WireReader r) {
        long revision = r.u32("revision");
        float toolRadiusM = r.f32("toolRadiusM");
        String name = r.str("scene name");
        int at = r.offset();
        int n = r.count("bodyCount", at, r.u16("bodyCount"), StreamProtocol.MAX_BODIES, MIN_BODY_BYTES);
        List<Body> bodies = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String field = "body " + i;
            int idAt = r.offset();
            int id = r.u16(field + " id");
            if (id == StreamProtocol.TOOL_ID) {
                throw new StreamFormatException(field + " id at offset " + idAt + " is the tool's id 65535");
            }
            int motionAt = r.offset();
            int motionCode = r.u8(field + " motion");
            Motion motion = Motion.fromCode(motionCode);
            if (motion == null) {
                throw new StreamFormatException(field + " motion at offset " + motionAt + " is unknown code "
                    + motionCode);
            }
            int shapeAt = r.offset();
            int shapeCode = r.u8(field + " shape");
            int rgba = r.u8(field + " colour r") << 24 | r.u8(field + " colour g") << 16
                | r.u8(field + " colour b") << 8 | r.u8(field + " colour a");
            Vec3 position = r.vec(field + " positionM");
            Quat orientation = r.quat(field + " orientation");
            String bodyName = r.str(field + " name");
            String material = r.str(field + " materialName");
            Shape shape = readShape(r, field, shapeCode, shapeAt);
            bodies.add(new Body(id, bodyName, motion, shape, material, rgba, position, orientation));
        }
        return new SceneMessage(revision, name, toolRadiusM, bodies);
    }

    private static Shape readShape(WireReader r, String field, int code, int codeAt) {
        switch (code) {
            case 1:
                return new Shape.Sphere(r.f32(field + " radiusM"));
            case 2:
                return new Shape.Box(r.vec(field + " halfExtentsM"));
            case 3:
                return new Shape.Capsule(r.f32(field + " radiusM"), r.f32(field + " halfHeightM"));
            case 4:
                return new Shape.Plane(r.vec(field + " normal"), r.f32(field + " offsetM"));
            case 5: {
                int at = r.offset();
                int n = r.count(field + " vertexCount", at, r.u16(field + " vertexCount"),
                    StreamProtocol.MAX_HULL_VERTICES, 12);
                if (n == 0) {
                    throw new StreamFormatException(field + " vertexCount at offset " + at + " is 0");
                }
                return new Shape.ConvexHull(readFloats(r, field + " verticesM", 3 * n));
            }
            case 6: {
                int at = r.offset();
                int nv = r.count(field + " vertexCount", at, r.u16(field + " vertexCount"),
                    StreamProtocol.MAX_MESH_VERTICES, 12);
                if (nv == 0) {
                    throw new StreamFormatException(field + " vertexCount at offset " + at + " is 0");
                }
                int tAt = r.offset();
                long triangles = r.u32(field + " triangleCount");
                // Vertices come first, so the bytes left must hold both arrays.
                int nt = r.count(field + " triangleCount", tAt, triangles, StreamProtocol.MAX_MESH_TRIANGLES, 0);
                if ((long) nv * 12 + (long) nt * 6 > r.remaining()) {
                    throw new StreamFormatException("truncated: " + field + " mesh of " + nv + " vertices and "
                        + nt + " triangles at offset " + at + " needs " + ((long) nv * 12 + (long) nt * 6)
                        + " bytes, " + r.remaining() + " left");
                }
                float[] vertices = readFloats(r, field + " verticesM", 3 * nv);
                int[] indices = new int[3 * nt];
                for (int i = 0; i < indices.length; i++) {
                    int iAt = r.offset();
                    indices[i] = r.u16(field + " index");
                    if (indices[i] >= nv) {
                        throw new StreamFormatException(field + " index " + i + " at offset " + iAt + " is "
                            + indices[i] + ", not below vertexCount " + nv);
                    }
                }
                return new Shape.TriangleMesh(vertices, indices);
            }
            case 7: {
                int at = r.offset();
                int n = r.count(field + " nodeCount", at, r.u16(field + " nodeCount"),
                    StreamProtocol.MAX_DEFORMABLE_NODES, 12);
                if (n == 0) {
                    throw new StreamFormatException(field + " nodeCount at offset " + at + " is 0");
                }
                int eAt = r.offset();
                int ne = r.count(field + " edgeCount", eAt, r.u32(field + " edgeCount"),
                    StreamProtocol.MAX_DEFORMABLE_ELEMENTS, 0);
                int tAt = r.offset();
                int nt = r.count(field + " triangleCount", tAt, r.u32(field + " triangleCount"),
                    StreamProtocol.MAX_DEFORMABLE_ELEMENTS, 0);
                if ((long) n * 12 + (long) ne * 4 + (long) nt * 6 > r.remaining()) {
                    throw new StreamFormatException("truncated: " + field + " deformable of " + n + " nodes, " + ne
                        + " edges and " + nt + " triangles at offset " + at + " needs "
                        + ((long) n * 12 + (long) ne * 4 + (long) nt * 6) + " bytes, " + r.remaining() + " left");
                }
                float[] nodesM = readFloats(r, field + " nodesM", 3 * n);
                int[] edges = readIndices(r, field + " edge", 2 * ne, n);
                int[] triangles = readIndices(r, field + " triangle", 3 * nt, n);
                return new Shape.Deformable(nodesM, edges, triangles);
            }
            default:
                throw new StreamFormatException(field + " shape at offset " + codeAt + " is unknown code " + code);
        }
    }

    private static int[] readIndices(WireReader r, String field, int count, int nodes) {
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            int at = r.offset();
            out[i] = r.u16(field + " index");
            if (out[i] >= nodes) {
                throw new StreamFormatException(field + " index " + i + " at offset " + at + " is " + out[i]
                    + ", not below nodeCount " + nodes);
            }
        }
        return out;
    }

    private static float[] readFloats(WireReader r, String field, int n) {
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = r.f32(field);
        }
        return out;
    }

    /** Bytes of one pose (u16 id, 3 f32, 4 f32) and one contact (2 u16, 10 f32) on the wire. */
    static final int POSE_BYTES = 30;
    static final int CONTACT_BYTES = 44;

    private static StateMessage readState(WireReader r) {
        long tick = r.u63("tick");
        long simTimeNs = r.u63("simTimeNs");
        long revision = r.u32("sceneRevision");
        SafetyCode safety = safetyCode(r, "safetyState");
        FaultCode fault = faultCode(r, "safetyFault");
        int flags = r.u8("flags");
        int physicsLoadPercent = r.u8("physicsLoadPercent");
        Vec3 device = r.vec("devicePositionM");
        Vec3 tool = r.vec("toolPositionM");
        Vec3 rendered = r.vec("renderedForceN");
        Vec3 commanded = r.vec("commandedForceN");
        LoopStats loop = new LoopStats(r.f32("achievedRateHz"), r.u32("periodErrorP99Ns"), r.u32("tickTimeP99Ns"),
            r.u32("overruns"), (flags & StateFlags.PHYSICS_OVER_BUDGET) != 0, physicsLoadPercent);
        int posesAt = r.offset();
        int poseCount = r.u16("poseCount");
        int contactCount = r.u16("contactCount");
        r.count("poseCount", posesAt, poseCount, StreamProtocol.MAX_POSES, POSE_BYTES);
        r.count("contactCount", posesAt + 2, contactCount, StreamProtocol.MAX_CONTACTS, 0);
        // Version 2: the poses and contacts are followed by the deformable block, at least its u16 count.
        if ((long) poseCount * POSE_BYTES + (long) contactCount * CONTACT_BYTES + 2 > r.remaining()) {
            throw new StreamFormatException("STATE with " + poseCount + " poses and " + contactCount
                + " contacts needs " + (poseCount * POSE_BYTES + contactCount * CONTACT_BYTES + 2)
                + " bytes after offset " + r.offset() + ", has " + r.remaining());
        }
        List<BodyPose> poses = new ArrayList<>(poseCount);
        for (int i = 0; i < poseCount; i++) {
            int at = r.offset();
            int id = r.u16("pose " + i + " bodyId");
            if (id == StreamProtocol.TOOL_ID) {
                throw new StreamFormatException("pose " + i + " bodyId at offset " + at + " is the tool's id");
            }
            poses.add(new BodyPose(id, r.vec("pose positionM"), r.quat("pose orientation")));
        }
        List<ContactPoint> contacts = new ArrayList<>(contactCount);
        for (int i = 0; i < contactCount; i++) {
            contacts.add(new ContactPoint(r.u16("contact bodyA"), r.u16("contact bodyB"), r.vec("contact pointM"),
                r.vec("contact normal"), r.vec("contact forceN"), r.f32("contact depthM")));
        }
        int dAt = r.offset();
        int deformableCount = r.count("deformableCount", dAt, r.u16("deformableCount"),
            StreamProtocol.MAX_DEFORMABLES, 4);
        List<DeformableNodes> deformables = new ArrayList<>(deformableCount);
        long nodes = 0;
        for (int i = 0; i < deformableCount; i++) {
            int at = r.offset();
            int id = r.u16("deformable " + i + " bodyId");
            if (id == StreamProtocol.TOOL_ID) {
                throw new StreamFormatException("deformable " + i + " bodyId at offset " + at + " is the tool's id");
            }
            int nAt = r.offset();
            int n = r.count("deformable " + i + " nodeCount", nAt, r.u16("deformable " + i + " nodeCount"),
                StreamProtocol.MAX_DEFORMABLE_NODES, 12);
            nodes += n;
            if (n == 0 || nodes > StreamProtocol.MAX_DEFORMABLE_NODES) {
                throw new StreamFormatException("deformable " + i + " nodeCount at offset " + nAt + " is " + n
                    + ": 1.., " + StreamProtocol.MAX_DEFORMABLE_NODES + " in all");
            }
            deformables.add(new DeformableNodes(id, readFloats(r, "deformable " + i + " positionsM", 3 * n)));
        }
        return new StateMessage(tick, simTimeNs, revision, safety, fault,
            (flags & StateFlags.DEVICE_CONNECTED) != 0, (flags & StateFlags.PAUSED) != 0,
            device, tool, rendered, commanded, loop, poses, contacts, deformables);
    }

    private static SafetyCode safetyCode(WireReader r, String field) {
        int at = r.offset();
        int code = r.u8(field);
        SafetyCode s = SafetyCode.fromCode(code);
        if (s == null) {
            throw new StreamFormatException(field + " at offset " + at + " is unknown code " + code);
        }
        return s;
    }

    private static ContactModeCode contactMode(WireReader r, String field) {
        int at = r.offset();
        int code = r.u8(field);
        ContactModeCode m = ContactModeCode.fromCode(code);
        if (m == null) {
            throw new StreamFormatException(field + " at offset " + at + " is unknown code " + code);
        }
        return m;
    }

    private static FaultCode faultCode(WireReader r, String field) {
        int at = r.offset();
        int code = r.u8(field);
        FaultCode f = FaultCode.fromCode(code);
        if (f == null) {
            throw new StreamFormatException(field + " at offset " + at + " is unknown code " + code);
        }
        return f;
    }

    /** Smallest event: tick and kind (DEVICE_CONNECTED has nothing more). */
    private static final int MIN_EVENT_BYTES = 9;

    private static EventsMessage readEvents(WireReader r) {
        int at = r.offset();
        int n = r.count("eventCount", at, r.u16("eventCount"), StreamProtocol.MAX_EVENTS, MIN_EVENT_BYTES);
        List<StreamEvent> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            String field = "event " + i;
            long tick = r.u63(field + " tick");
            int kindAt = r.offset();
            int kind = r.u8(field + " kind");
            events.add(switch (kind) {
                case 1 -> new StreamEvent.ContactBegan(tick, r.u16(field + " bodyA"), r.u16(field + " bodyB"));
                case 2 -> new StreamEvent.ContactEnded(tick, r.u16(field + " bodyA"), r.u16(field + " bodyB"));
                case 3 -> new StreamEvent.Impact(tick, r.u16(field + " bodyA"), r.u16(field + " bodyB"),
                    r.f32(field + " impulseNewtonSeconds"));
                case 4 -> new StreamEvent.SafetyChanged(tick, safetyCode(r, field + " from"),
                    safetyCode(r, field + " to"), faultCode(r, field + " fault"));
                case 5 -> new StreamEvent.DeviceConnected(tick);
                case 6 -> new StreamEvent.DeviceDisconnected(tick);
                case 7 -> new StreamEvent.PhysicsOverBudget(tick, r.u32(field + " stepP99Ns"),
                    r.u32(field + " budgetNs"));
                case 8 -> new StreamEvent.PhysicsWithinBudget(tick, r.u32(field + " stepP99Ns"),
                    r.u32(field + " budgetNs"));
                case 9 -> new StreamEvent.ContactsDropped(tick, r.u32(field + " droppedPairs"),
                    r.u32(field + " droppedPoints"));
                case 10 -> new StreamEvent.ImpulseCollision(tick, r.u16(field + " bodyA"), r.u16(field + " bodyB"),
                    contactMode(r, field + " mode"), r.f32(field + " impulseNewtonSeconds"),
                    r.f32(field + " heightN"), r.f32(field + " durationS"), r.f32(field + " elasticity"));
                default -> throw new StreamFormatException(field + " kind at offset " + kindAt
                    + " is unknown code " + kind);
            });
        }
        return new EventsMessage(events);
    }

    private static Command moveHand(double xM, double yM, double zM, int kindAt) {
        if (!Double.isFinite(xM) || !Double.isFinite(yM) || !Double.isFinite(zM)) {
            throw new StreamFormatException("MOVE_HAND after offset " + kindAt + " has a non-finite position");
        }
        return new Command.MoveHand(xM, yM, zM);
    }

    private static CommandMessage readCommand(WireReader r) {
        long id = r.u32("commandId");
        int kindAt = r.offset();
        int kind = r.u8("command kind");
        String token = r.str("authToken");
        Command command = switch (kind) {
            case 1 -> new Command.Pause();
            case 2 -> new Command.Resume();
            case 3 -> new Command.ResetScene();
            case 4 -> new Command.LoadScene(r.str("sceneName"));
            case 5 -> new Command.EmergencyStop();
            case 6 -> new Command.ResetStop();
            case 7 -> new Command.SetParameter(r.str("parameter name"), r.f64("parameter value"));
            case 8 -> moveHand(r.f64("hand x"), r.f64("hand y"), r.f64("hand z"), kindAt);
            default -> throw new StreamFormatException("command kind at offset " + kindAt + " is unknown code "
                + kind);
        };
        return new CommandMessage(id, token, command);
    }
}
