package org.hapticsd.server.net;

import java.util.ArrayList;
import java.util.List;
import org.hapticsd.physics.BodyType;
import org.hapticsd.physics.BoxShape;
import org.hapticsd.physics.CapsuleShape;
import org.hapticsd.physics.ContactMode;
import org.hapticsd.physics.deformable.DeformableBody;
import org.hapticsd.physics.ConvexHullShape;
import org.hapticsd.physics.PhysicsWorld;
import org.hapticsd.physics.PlaneShape;
import org.hapticsd.physics.Shape;
import org.hapticsd.physics.SphereShape;
import org.hapticsd.physics.TriangleMeshShape;
import org.hapticsd.physics.geometry.ConvexHull;
import org.hapticsd.physics.geometry.TriangleMesh;
import org.hapticsd.protocol.stream.Body;
import org.hapticsd.protocol.stream.EventsMessage;
import org.hapticsd.protocol.stream.StreamEvent;
import org.hapticsd.protocol.stream.FaultCode;
import org.hapticsd.protocol.stream.LoopStats;
import org.hapticsd.protocol.stream.ContactModeCode;
import org.hapticsd.protocol.stream.HelloMessage;
import org.hapticsd.protocol.stream.Motion;
import org.hapticsd.protocol.stream.Quat;
import org.hapticsd.protocol.stream.SafetyCode;
import org.hapticsd.protocol.stream.SceneMessage;
import org.hapticsd.protocol.stream.StateEncoder;
import org.hapticsd.protocol.stream.StateMessage;
import org.hapticsd.protocol.stream.StreamCodec;
import org.hapticsd.protocol.stream.StreamJson;
import org.hapticsd.protocol.stream.StreamProtocol;
import org.hapticsd.protocol.stream.Vec3;
import org.hapticsd.server.loop.LoopSnapshot;
import org.hapticsd.server.render.DeviceMapping;
import org.hapticsd.server.safety.SafetyFault;
import org.hapticsd.server.safety.SafetyState;
import org.hapticsd.server.scene.BuiltScene;
import org.joml.Quaterniond;
import org.joml.Vector3d;

/**
 * The loop's scene and snapshots as stream protocol messages (docs/stream-protocol.md). Stream body ids are the
 * scene's named bodies in file order (0, 1, ...) and {@link StreamProtocol#TOOL_ID} for the tool; forces are
 * turned from the device frame into the scene frame so a viewer draws them without knowing the mapping.
 *
 * <p>SCENE is built once per scene, from the world before the loop owns it (shapes and static poses never change
 * after building); a replaced scene gets new frames with the next revision ({@link StreamEpoch}). Everything per frame comes from the snapshot a client copied: no call reaches the
 * loop's world.
 */
public final class ProtocolStreamFrames implements StreamFrames {
    private static final SafetyCode[] SAFETY_CODES = java.util.Arrays.stream(SafetyState.values())
        .map(state -> SafetyCode.valueOf(state.name())).toArray(SafetyCode[]::new);
    private static final FaultCode[] FAULT_CODES = java.util.Arrays.stream(SafetyFault.values())
        .map(fault -> FaultCode.valueOf(fault.name())).toArray(FaultCode[]::new);
    private static final String SERVER_VERSION = "hapticsd 0.1.0";

    private final DeviceMapping mapping;
    private final LoopStatsBoard stats;
    private final int[] streamIdOfWorldIndex;
    private final int[] movingWorldIndices;
    private final HelloMessage hello;
    private final SceneMessage scene;
    /** The stream id of the first deformable body, and each one's node count. */
    private final int firstDeformableId;
    private final int[] deformableNodeCounts;
    private static final int DEFORMABLE_COLOUR = 0x7FB3D5FF;
    private final byte[] helloBinary;
    private final String helloJson;
    private final byte[] sceneBinary;
    private final String sceneJson;

    /** Revision 1: the scene the server started with. Call before the loop starts. */
    public ProtocolStreamFrames(BuiltScene built, int rateHz, LoopStatsBoard stats) {
        this(built, rateHz, stats, 1);
    }

    /**
     * Call before the loop owns {@code built}'s world: it reads the world's shapes and initial poses.
     *
     * @param revision the SCENE revision (1 for the first scene, one more for each replacement)
     */
    public ProtocolStreamFrames(BuiltScene built, int rateHz, LoopStatsBoard stats, long revision) {
        this.mapping = built.haptic().mapping();
        this.stats = stats;
        PhysicsWorld world = built.haptic().world();
        int toolBody = built.haptic().toolBody();
        streamIdOfWorldIndex = new int[world.bodyCount()];
        java.util.Arrays.fill(streamIdOfWorldIndex, -1);
        streamIdOfWorldIndex[toolBody] = StreamProtocol.TOOL_ID;
        List<Body> bodies = new ArrayList<>();
        List<Integer> moving = new ArrayList<>();
        Vector3d position = new Vector3d();
        Quaterniond orientation = new Quaterniond();
        for (int id = 0; id < built.bodyNames().size(); id++) {
            int index = built.bodyIndices()[id];
            streamIdOfWorldIndex[index] = id;
            BodyType type = world.bodyType(index);
            Motion motion = type == BodyType.DYNAMIC ? Motion.DYNAMIC
                : type == BodyType.KINEMATIC ? Motion.KINEMATIC : Motion.STATIC;
            if (motion != Motion.STATIC) {
                moving.add(index);
            }
            world.bodyPosition(index, position);
            world.bodyOrientation(index, orientation);
            bodies.add(new Body(id, built.bodyNames().get(id), motion, shape(world.shape(index)),
                materialName(world, index), colour(motion), vec(position), quat(orientation)));
        }
        movingWorldIndices = moving.stream().mapToInt(Integer::intValue).toArray();
        // Deformable bodies follow the rigid ones, ids counting on: shape DEFORMABLE, pose the identity.
        firstDeformableId = bodies.size();
        deformableNodeCounts = new int[world.deformableCount()];
        for (int d = 0; d < world.deformableCount(); d++) {
            DeformableBody body = world.deformable(d);
            float[] nodes = new float[3 * body.nodeCount()];
            for (int n = 0; n < body.nodeCount(); n++) {
                body.nodePosition(n, position);
                nodes[3 * n] = (float) position.x;
                nodes[3 * n + 1] = (float) position.y;
                nodes[3 * n + 2] = (float) position.z;
            }
            deformableNodeCounts[d] = body.nodeCount();
            bodies.add(new Body(firstDeformableId + d, body.name(), Motion.DYNAMIC,
                new org.hapticsd.protocol.stream.Shape.Deformable(nodes, body.edges(), body.triangles()), "default",
                DEFORMABLE_COLOUR, new Vec3(0f, 0f, 0f), new Quat(1f, 0f, 0f, 0f)));
        }
        double toolRadiusM = world.shape(toolBody) instanceof SphereShape s ? s.radiusM() : 0.0;
        hello = new HelloMessage(StreamProtocol.VERSION, rateHz, SERVER_VERSION);
        scene = new SceneMessage(revision, built.name(), (float) toolRadiusM, bodies);
        helloBinary = StreamCodec.encode(hello);
        helloJson = StreamJson.encodeJson(hello);
        sceneBinary = StreamCodec.encode(scene);
        sceneJson = StreamJson.encodeJson(scene);
    }

    private static org.hapticsd.protocol.stream.Shape shape(Shape shape) {
        if (shape instanceof SphereShape s) {
            return new org.hapticsd.protocol.stream.Shape.Sphere((float) s.radiusM());
        }
        if (shape instanceof BoxShape b) {
            return new org.hapticsd.protocol.stream.Shape.Box(
                new Vec3((float) b.halfXM(), (float) b.halfYM(), (float) b.halfZM()));
        }
        if (shape instanceof CapsuleShape c) {
            return new org.hapticsd.protocol.stream.Shape.Capsule((float) c.radiusM(), (float) c.halfLengthM());
        }
        if (shape instanceof PlaneShape p) {
            // The plane passes through the body's position: offset 0 in the body's own frame.
            return new org.hapticsd.protocol.stream.Shape.Plane(
                new Vec3((float) p.normal().x(), (float) p.normal().y(), (float) p.normal().z()), 0f);
        }
        if (shape instanceof ConvexHullShape h) {
            ConvexHull hull = h.hull();
            float[] vertices = new float[3 * hull.vertexCount()];
            Vector3d v = new Vector3d();
            for (int i = 0; i < hull.vertexCount(); i++) {
                hull.vertex(i, v);
                vertices[3 * i] = (float) v.x;
                vertices[3 * i + 1] = (float) v.y;
                vertices[3 * i + 2] = (float) v.z;
            }
            return new org.hapticsd.protocol.stream.Shape.ConvexHull(vertices);
        }
        TriangleMesh mesh = ((TriangleMeshShape) shape).mesh();
        float[] vertices = new float[3 * mesh.vertexCount()];
        for (int i = 0; i < mesh.vertexCount(); i++) {
            vertices[3 * i] = (float) mesh.vertexX(i);
            vertices[3 * i + 1] = (float) mesh.vertexY(i);
            vertices[3 * i + 2] = (float) mesh.vertexZ(i);
        }
        int[] indices = new int[3 * mesh.triangleCount()];
        for (int t = 0; t < mesh.triangleCount(); t++) {
            for (int k = 0; k < 3; k++) {
                indices[3 * t + k] = mesh.corner(t, k);
            }
        }
        return new org.hapticsd.protocol.stream.Shape.TriangleMesh(vertices, indices);
    }

    private static String materialName(PhysicsWorld world, int body) {
        var m = world.material(body);
        return m.equals(org.hapticsd.physics.Material.DEFAULT) ? "default"
            : String.format(java.util.Locale.ROOT, "e%.2f mu0 %.2f mu %.2f", m.elasticity(), m.staticFriction(),
                m.dynamicFriction());
    }

    /** A colour hint by motion: grey static, blue kinematic, orange dynamic (RGBA). */
    private static int colour(Motion motion) {
        return switch (motion) {
            case STATIC -> 0x9E9E9EFF;
            case KINEMATIC -> 0x4F8BD6FF;
            case DYNAMIC -> 0xE8913AFF;
        };
    }

    private static Vec3 vec(Vector3d v) {
        return new Vec3((float) v.x, (float) v.y, (float) v.z);
    }

    private static Quat quat(Quaterniond q) {
        return new Quat((float) q.w, (float) q.x, (float) q.y, (float) q.z);
    }

    /**
     * The STATE message of a snapshot, as a client decodes it (its binary form read back: one path makes both); any
     * thread (the snapshot is the caller's copy).
     */
    public StateMessage state(LoopSnapshot s) {
        return (StateMessage) StreamCodec.decode(stateBinary(s));
    }

    /**
     * Writes the snapshot's STATE field by field into {@code out}'s encoder: nothing is allocated once its buffer has
     * grown (a STATE of the object model cost about 1.6 kB of garbage per message and client, a second's worth of
     * 1 kHz binary stream 1.35 MB). Contacts whose bodies have no stream id are left out, as before.
     */
    @Override
    public void stateBinary(LoopSnapshot s, StateBuffer out) {
        StateEncoder e = out.encoder;
        Vector3d scratch = out.scratch;
        int contacts = 0;
        for (int i = 0; i < s.publishedContacts; i++) {
            if (streamIdOfWorldIndex[s.contactBodies[2 * i]] >= 0
                    && streamIdOfWorldIndex[s.contactBodies[2 * i + 1]] >= 0) {
                contacts++;
            }
        }
        int nodes = 0;
        for (int count : deformableNodeCounts) {
            nodes += count;
        }
        e.begin(movingWorldIndices.length, contacts, deformableNodeCounts.length, nodes);
        e.fixed(s.tick, s.simTimeNs, scene.revision(), SAFETY_CODES[s.safety.ordinal()], FAULT_CODES[s.fault.ordinal()],
            s.deviceConnected, s.paused, s.physicsOverBudget, s.physicsLoadPercent);
        // Until proxy rendering exists the tool is where the device is (docs/stream-protocol.md, 4.3).
        double[] tool = s.toolPositionM;
        e.devicePosition((float) tool[0], (float) tool[1], (float) tool[2]);
        e.toolPosition((float) tool[0], (float) tool[1], (float) tool[2]);
        sceneForce(s.renderedForceN, scratch);
        e.renderedForce((float) scratch.x, (float) scratch.y, (float) scratch.z);
        sceneForce(s.commandedForceN, scratch);
        e.commandedForce((float) scratch.x, (float) scratch.y, (float) scratch.z);
        // The board's timing of the last second, with the physics budget of this very tick's snapshot (fixed()).
        LoopStats timing = stats.latest();
        e.loop(timing.achievedRateHz(), timing.periodErrorP99Ns(), timing.tickTimeP99Ns(), timing.overruns());
        double[] pose = s.bodyPose;
        for (int index : movingWorldIndices) {
            int p = index * LoopSnapshot.POSE_STRIDE;
            e.pose(streamIdOfWorldIndex[index], (float) pose[p], (float) pose[p + 1], (float) pose[p + 2],
                (float) pose[p + 3], (float) pose[p + 4], (float) pose[p + 5], (float) pose[p + 6]);
        }
        for (int i = 0; i < s.publishedContacts; i++) {
            int a = streamIdOfWorldIndex[s.contactBodies[2 * i]];
            int b = streamIdOfWorldIndex[s.contactBodies[2 * i + 1]];
            if (a < 0 || b < 0) {
                continue;
            }
            // The engine's contact has its normal from B toward A and the force on A; the spec's runs from A toward
            // B with the force on B (section 4.3): both are the engine's, negated.
            int v = 3 * i;
            double[] point = s.contactPointM;
            double[] normal = s.contactNormal;
            double[] force = s.contactForceN;
            e.contact(a, b, (float) point[v], (float) point[v + 1], (float) point[v + 2],
                (float) -normal[v], (float) -normal[v + 1], (float) -normal[v + 2],
                (float) -force[v], (float) -force[v + 1], (float) -force[v + 2], (float) s.contactDepthM[i]);
        }
        for (int d = 0, offset = 0; d < deformableNodeCounts.length; d++) {
            e.deformable(firstDeformableId + d, deformableNodeCounts[d]);
            for (int n = 0; n < deformableNodeCounts[d]; n++, offset += 3) {
                e.node((float) s.nodePositionM[offset], (float) s.nodePositionM[offset + 1],
                    (float) s.nodePositionM[offset + 2]);
            }
        }
        e.finish();
        out.encoded();
    }

    private void sceneForce(double[] deviceForceN, Vector3d scratch) {
        mapping.deviceForceToScene(scratch.set(deviceForceN[0], deviceForceN[1], deviceForceN[2]), scratch);
    }

    @Override
    public byte[] helloBinary() {
        return helloBinary;
    }

    @Override
    public String helloJson() {
        return helloJson;
    }

    @Override
    public byte[] sceneBinary() {
        return sceneBinary;
    }

    @Override
    public String sceneJson() {
        return sceneJson;
    }

    @Override
    public byte[] stateBinary(LoopSnapshot snapshot) {
        StateBuffer out = new StateBuffer();
        stateBinary(snapshot, out);
        return java.util.Arrays.copyOf(out.bytes(), out.length());
    }

    @Override
    public String stateJson(LoopSnapshot snapshot) {
        return StreamJson.encodeJson(state(snapshot));
    }

    @Override
    public List<Object> eventsFrames(EventLog.Receiver events, boolean json) {
        EventCollector collector = collectors.get();
        List<StreamEvent> list = collector.events;
        list.clear();
        events.drain(collector);
        if (list.isEmpty()) {
            // Most runs of a client: nothing happened, and nothing is allocated.
            return List.of();
        }
        // Every event goes out: more than an EVENTS message holds is split over several, oldest first (before, the
        // events past the 1024th of a frame were read from the ring and lost).
        List<Object> frames = new ArrayList<>();
        for (int from = 0; from < list.size(); from += StreamProtocol.MAX_EVENTS) {
            EventsMessage message = new EventsMessage(
                List.copyOf(list.subList(from, Math.min(list.size(), from + StreamProtocol.MAX_EVENTS))));
            frames.add(json ? StreamJson.encodeJson(message) : StreamCodec.encode(message));
        }
        // The thread's list keeps no event past the call.
        list.clear();
        return frames;
    }

    /**
     * A thread's reusable list of the events one {@link #eventsFrames} call read: each Netty event loop has its own,
     * so a client run with no event allocates nothing.
     */
    private final class EventCollector implements EventLog.Sink {
        final List<StreamEvent> events = new ArrayList<>();

        @Override
        public void accept(EventLog.Event e) {
            StreamEvent event = event(e);
            if (event != null) {
                events.add(event);
            }
        }
    }

    private final ThreadLocal<EventCollector> collectors = ThreadLocal.withInitial(EventCollector::new);

    private StreamEvent event(EventLog.Event e) {
        long tick = e.tick();
        int a = e.bodyA();
        int b = e.bodyB();
        int kind = e.kind();
        return switch (kind) {
            case EventLog.CONTACT_BEGAN, EventLog.CONTACT_ENDED, EventLog.IMPACT -> {
                int idA = a >= 0 && a < streamIdOfWorldIndex.length ? streamIdOfWorldIndex[a] : -1;
                int idB = b >= 0 && b < streamIdOfWorldIndex.length ? streamIdOfWorldIndex[b] : -1;
                if (idA < 0 || idB < 0) {
                    yield null;
                }
                yield kind == EventLog.CONTACT_BEGAN ? new StreamEvent.ContactBegan(tick, idA, idB)
                    : kind == EventLog.CONTACT_ENDED ? new StreamEvent.ContactEnded(tick, idA, idB)
                    : new StreamEvent.Impact(tick, idA, idB, (float) e.impulseNewtonSeconds());
            }
            case EventLog.IMPULSE_COLLISION -> {
                int idA = a == -1 ? StreamProtocol.TOOL_ID : a >= 0 && a < streamIdOfWorldIndex.length
                    ? streamIdOfWorldIndex[a] : -1;
                int idB = b == -1 ? StreamProtocol.TOOL_ID : b >= 0 && b < streamIdOfWorldIndex.length
                    ? streamIdOfWorldIndex[b] : -1;
                if (idA < 0 || idB < 0) {
                    yield null;
                }
                yield new StreamEvent.ImpulseCollision(tick, idA, idB,
                    ContactModeCode.valueOf(ContactMode.values()[e.modeOrdinal()].name()),
                    (float) e.impulseNewtonSeconds(), (float) e.heightN(), (float) e.durationS(),
                    (float) e.elasticity());
            }
            case EventLog.SAFETY_CHANGED -> new StreamEvent.SafetyChanged(tick,
                SAFETY_CODES[e.fromState()], SAFETY_CODES[e.toStateAndFault() & 0xFF],
                FAULT_CODES[e.toStateAndFault() >>> 8]);
            case EventLog.DEVICE_CONNECTED -> new StreamEvent.DeviceConnected(tick);
            case EventLog.DEVICE_DISCONNECTED -> new StreamEvent.DeviceDisconnected(tick);
            case EventLog.PHYSICS_OVER_BUDGET -> new StreamEvent.PhysicsOverBudget(tick, Integer.toUnsignedLong(a),
                Integer.toUnsignedLong(b));
            case EventLog.PHYSICS_WITHIN_BUDGET -> new StreamEvent.PhysicsWithinBudget(tick,
                Integer.toUnsignedLong(a), Integer.toUnsignedLong(b));
            case EventLog.CONTACTS_DROPPED -> new StreamEvent.ContactsDropped(tick, Integer.toUnsignedLong(a),
                Integer.toUnsignedLong(b));
            default -> null;
        };
    }
}
