package org.hapticsd.protocol.stream;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Writes a STATE message (docs/stream-protocol.md, section 4.3) field by field into a buffer it keeps and reuses,
 * for a server that streams a STATE on every tick: once the buffer has grown to the largest message seen, encoding
 * allocates nothing (a {@link StateMessage} of a 200-body scene is about 1.6 kB of objects). {@link StreamCodec}
 * writes its {@code StateMessage}s through the same methods, so the two cannot disagree on a byte.
 *
 * <p>The calls follow the message's order: {@link #begin}, {@link #fixed}, {@link #devicePosition},
 * {@link #toolPosition}, {@link #renderedForce}, {@link #commandedForce}, {@link #loop}, then exactly the declared
 * number of {@link #pose}s, {@link #contact}s and {@link #deformable}s (each followed by its {@link #node}s), then
 * {@link #finish}. A call out of that order, a count other than the one declared or a value out of its field's range
 * throws ({@link IllegalStateException} for the order, {@link StreamFormatException} for a value or a limit) and
 * leaves nothing to send. One thread at a time.
 */
public final class StateEncoder {
    private static final int INITIAL_BYTES = 4096;
    private static final int FIXED_BYTES = 94;
    private static final int POSE_BYTES = 30;
    private static final int CONTACT_BYTES = 44;
    private static final int DEFORMABLE_BYTES = 4;
    private static final int NODE_BYTES = 12;

    private static final int IDLE = 0;
    private static final int FIXED = 1;
    private static final int DEVICE = 2;
    private static final int TOOL = 3;
    private static final int RENDERED = 4;
    private static final int COMMANDED = 5;
    private static final int LOOP = 6;
    private static final int BODIES = 7;
    private static final int DONE = 8;

    /** Null when writing into a caller's {@link WireWriter} (the codec's counting and writing passes). */
    private ByteBuffer buffer;
    private WireWriter out;
    private int phase = IDLE;
    private int poses;
    private int contacts;
    private int deformables;
    private int nodes;
    private int posesWritten;
    private int contactsWritten;
    private int deformablesWritten;
    private int nodesWritten;
    /** Nodes still due for the deformable body being written. */
    private int nodesDue;
    private boolean deformableCountWritten;
    private int length;

    /** An encoder with its own buffer, grown as messages need it. */
    public StateEncoder() {
        buffer = ByteBuffer.allocate(INITIAL_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        out = new WireWriter(buffer);
    }

    /** The codec's: every field goes to {@code out}, which counts or writes. */
    StateEncoder(WireWriter out) {
        this.out = out;
    }

    /** The whole message's size in bytes, header included: {@code 4 + 94 + 30p + 44c + 4d + 12n}. */
    public static long encodedSize(int poses, int contacts, int deformables, int nodes) {
        return StreamProtocol.HEADER_BYTES + FIXED_BYTES + (long) POSE_BYTES * poses + (long) CONTACT_BYTES * contacts
            + (long) DEFORMABLE_BYTES * deformables + (long) NODE_BYTES * nodes;
    }

    /**
     * Starts a message (abandoning any unfinished one) and writes its header.
     *
     * @param poses       kinematic and dynamic bodies' poses to follow, 0..{@value StreamProtocol#MAX_POSES}
     * @param contacts    contact points to follow, 0..{@value StreamProtocol#MAX_CONTACTS}
     * @param deformables deformable bodies to follow, 0..{@value StreamProtocol#MAX_DEFORMABLES}
     * @param nodes       their nodes in all, 0..{@value StreamProtocol#MAX_DEFORMABLE_NODES}
     */
    public void begin(int poses, int contacts, int deformables, int nodes) {
        phase = IDLE;
        count("poses", poses, StreamProtocol.MAX_POSES);
        count("contacts", contacts, StreamProtocol.MAX_CONTACTS);
        count("deformables", deformables, StreamProtocol.MAX_DEFORMABLES);
        if (nodes < 0 || nodes > StreamProtocol.MAX_DEFORMABLE_NODES) {
            throw new StreamFormatException("a STATE holds at most " + StreamProtocol.MAX_DEFORMABLE_NODES
                + " deformable nodes, had " + nodes);
        }
        if (deformables == 0 && nodes > 0) {
            throw new StreamFormatException("a STATE without deformable bodies has no nodes, had " + nodes);
        }
        if (deformables > 0 && nodes < deformables) {
            throw new StreamFormatException("each deformable body has at least one node: " + deformables
                + " bodies, " + nodes + " nodes");
        }
        long size = encodedSize(poses, contacts, deformables, nodes);
        if (size > StreamProtocol.MAX_SERVER_MESSAGE_BYTES) {
            throw new StreamFormatException("STATE is " + size + " bytes, more than the "
                + StreamProtocol.MAX_SERVER_MESSAGE_BYTES + "-byte limit for its direction");
        }
        if (buffer != null) {
            if (buffer.capacity() < size) {
                int capacity = Math.max((int) size, 2 * buffer.capacity());
                buffer = ByteBuffer.allocate(capacity).order(ByteOrder.LITTLE_ENDIAN);
                out = new WireWriter(buffer);
            }
            buffer.clear();
        }
        this.poses = poses;
        this.contacts = contacts;
        this.deformables = deformables;
        this.nodes = nodes;
        posesWritten = 0;
        contactsWritten = 0;
        deformablesWritten = 0;
        nodesWritten = 0;
        nodesDue = 0;
        deformableCountWritten = false;
        length = 0;
        StreamCodec.writeHeader(StreamMessageType.STATE, out);
        phase = FIXED;
    }

    /** Tick, times, revision, safety and flags: the first 24 bytes after the header. */
    public void fixed(long tick, long simTimeNs, long sceneRevision, SafetyCode safetyState, FaultCode safetyFault,
                      boolean deviceConnected, boolean paused, boolean physicsOverBudget, int physicsLoadPercent) {
        expect(FIXED, "fixed");
        Checks.u63("tick", tick);
        Checks.u63("simTimeNs", simTimeNs);
        Checks.u32("sceneRevision", sceneRevision);
        Checks.notNull("safetyState", safetyState);
        Checks.notNull("safetyFault", safetyFault);
        Checks.u8("physicsLoadPercent", physicsLoadPercent);
        out.u64(tick);
        out.u64(simTimeNs);
        out.u32(sceneRevision);
        out.u8(safetyState.code());
        out.u8(safetyFault.code());
        out.u8((deviceConnected ? StateFlags.DEVICE_CONNECTED : 0) | (paused ? StateFlags.PAUSED : 0)
            | (physicsOverBudget ? StateFlags.PHYSICS_OVER_BUDGET : 0));
        out.u8(physicsLoadPercent);
        phase = DEVICE;
    }

    /** The device handle's position mapped into the scene, m. */
    public void devicePosition(float x, float y, float z) {
        vector(DEVICE, "devicePosition", x, y, z);
    }

    /** The tool sphere's centre, m. */
    public void toolPosition(float x, float y, float z) {
        vector(TOOL, "toolPosition", x, y, z);
    }

    /** The renderer's force, before the safety layer, N, scene frame. */
    public void renderedForce(float x, float y, float z) {
        vector(RENDERED, "renderedForce", x, y, z);
    }

    /** The force commanded to the device after the safety layer, N, scene frame. */
    public void commandedForce(float x, float y, float z) {
        vector(COMMANDED, "commandedForce", x, y, z);
    }

    /** The loop statistics, then the pose and contact counts declared to {@link #begin}. */
    public void loop(float achievedRateHz, long periodErrorP99Ns, long tickTimeP99Ns, long overruns) {
        expect(LOOP, "loop");
        Checks.u32("periodErrorP99Ns", periodErrorP99Ns);
        Checks.u32("tickTimeP99Ns", tickTimeP99Ns);
        Checks.u32("overruns", overruns);
        out.f32(achievedRateHz);
        out.u32(periodErrorP99Ns);
        out.u32(tickTimeP99Ns);
        out.u32(overruns);
        out.u16(poses);
        out.u16(contacts);
        phase = BODIES;
        afterSection();
    }

    /** One body's pose: position, m, and orientation as a unit quaternion (w, x, y, z). */
    public void pose(int bodyId, float x, float y, float z, float qw, float qx, float qy, float qz) {
        expect(BODIES, "pose");
        if (posesWritten == poses) {
            throw new IllegalStateException("STATE: more poses than the " + poses + " declared");
        }
        Checks.bodyId("pose bodyId", bodyId);
        out.u16(bodyId);
        out.f32(x);
        out.f32(y);
        out.f32(z);
        out.f32(qw);
        out.f32(qx);
        out.f32(qy);
        out.f32(qz);
        posesWritten++;
        afterSection();
    }

    /**
     * One contact point, after every pose: bodies (or {@link StreamProtocol#TOOL_ID}), point, m, unit normal from A
     * toward B, force on B, N, and depth, m.
     */
    public void contact(int bodyA, int bodyB, float px, float py, float pz, float nx, float ny, float nz,
                        float fx, float fy, float fz, float depthM) {
        expect(BODIES, "contact");
        if (posesWritten < poses) {
            throw new IllegalStateException("STATE: a contact before the " + poses + " poses declared");
        }
        if (contactsWritten == contacts) {
            throw new IllegalStateException("STATE: more contacts than the " + contacts + " declared");
        }
        Checks.bodyOrTool("bodyA", bodyA);
        Checks.bodyOrTool("bodyB", bodyB);
        out.u16(bodyA);
        out.u16(bodyB);
        out.f32(px);
        out.f32(py);
        out.f32(pz);
        out.f32(nx);
        out.f32(ny);
        out.f32(nz);
        out.f32(fx);
        out.f32(fy);
        out.f32(fz);
        out.f32(depthM);
        contactsWritten++;
        afterSection();
    }

    /** A deformable body's entry, after every contact; its {@code nodeCount} {@link #node}s follow. */
    public void deformable(int bodyId, int nodeCount) {
        expect(BODIES, "deformable");
        if (posesWritten < poses || contactsWritten < contacts || nodesDue > 0) {
            throw new IllegalStateException("STATE: a deformable body before the poses, contacts and nodes due");
        }
        if (deformablesWritten == deformables) {
            throw new IllegalStateException("STATE: more deformable bodies than the " + deformables + " declared");
        }
        Checks.bodyOrTool("bodyId", bodyId);
        if (bodyId == StreamProtocol.TOOL_ID) {
            throw new StreamFormatException("deformable bodyId must not be the tool's id");
        }
        // Every body after this one needs a node, and the last takes all that are left.
        int left = nodes - nodesWritten;
        int bodiesLeft = deformables - deformablesWritten;
        int most = left - (bodiesLeft - 1);
        int least = bodiesLeft == 1 ? left : 1;
        if (nodeCount < least || nodeCount > most) {
            throw new StreamFormatException("deformable nodeCount " + nodeCount + ": must be " + least + ".." + most
                + " (" + left + " of the " + nodes + " nodes declared left for " + bodiesLeft + " bodies)");
        }
        out.u16(bodyId);
        out.u16(nodeCount);
        deformablesWritten++;
        nodesDue = nodeCount;
    }

    /** The next node of the deformable body being written, m. */
    public void node(float x, float y, float z) {
        expect(BODIES, "node");
        if (nodesDue == 0) {
            throw new IllegalStateException("STATE: a node with no deformable body's nodes due");
        }
        out.f32(x);
        out.f32(y);
        out.f32(z);
        nodesDue--;
        nodesWritten++;
        afterSection();
    }

    /**
     * Ends the message.
     *
     * @return its length in bytes, header included: {@link #array()}{@code [0, length)} is the message
     * @throws IllegalStateException unless every declared pose, contact, deformable body and node was written
     */
    public int finish() {
        if (phase != DONE) {
            throw new IllegalStateException("STATE unfinished: " + posesWritten + " of " + poses + " poses, "
                + contactsWritten + " of " + contacts + " contacts, " + deformablesWritten + " of " + deformables
                + " deformable bodies, " + nodesWritten + " of " + nodes + " nodes (or an earlier field missing)");
        }
        phase = IDLE;
        length = buffer == null ? out.count() : buffer.position();
        return length;
    }

    /** The encoder's buffer: the last finished message is its first {@link #length()} bytes. */
    public byte[] array() {
        if (buffer == null) {
            throw new IllegalStateException("this encoder writes into the codec's buffer");
        }
        return buffer.array();
    }

    /** The last finished message's length in bytes; 0 before the first. */
    public int length() {
        return length;
    }

    /** Writes a whole {@code StateMessage} (the codec's path; the record has checked its values). */
    static void write(StateMessage m, WireWriter w) {
        long nodes = 0;
        for (DeformableNodes d : m.deformables()) {
            nodes += d.nodeCount();
        }
        StateEncoder e = new StateEncoder(w);
        e.begin(m.poses().size(), m.contacts().size(), m.deformables().size(), (int) nodes);
        e.fixed(m.tick(), m.simTimeNs(), m.sceneRevision(), m.safetyState(), m.safetyFault(), m.deviceConnected(),
            m.paused(), m.loop().physicsOverBudget(), m.loop().physicsLoadPercent());
        Vec3 v = m.devicePositionM();
        e.devicePosition(v.x(), v.y(), v.z());
        v = m.toolPositionM();
        e.toolPosition(v.x(), v.y(), v.z());
        v = m.renderedForceN();
        e.renderedForce(v.x(), v.y(), v.z());
        v = m.commandedForceN();
        e.commandedForce(v.x(), v.y(), v.z());
        LoopStats loop = m.loop();
        e.loop(loop.achievedRateHz(), loop.periodErrorP99Ns(), loop.tickTimeP99Ns(), loop.overruns());
        for (BodyPose p : m.poses()) {
            Vec3 position = p.positionM();
            Quat q = p.orientation();
            e.pose(p.bodyId(), position.x(), position.y(), position.z(), q.w(), q.x(), q.y(), q.z());
        }
        for (ContactPoint c : m.contacts()) {
            Vec3 point = c.pointM();
            Vec3 normal = c.normal();
            Vec3 force = c.forceN();
            e.contact(c.bodyA(), c.bodyB(), point.x(), point.y(), point.z(), normal.x(), normal.y(), normal.z(),
                force.x(), force.y(), force.z(), c.depthM());
        }
        for (DeformableNodes d : m.deformables()) {
            e.deformable(d.bodyId(), d.nodeCount());
            for (int i = 0; i < d.nodeCount(); i++) {
                e.node(d.component(3 * i), d.component(3 * i + 1), d.component(3 * i + 2));
            }
        }
        e.finish();
    }

    private void vector(int at, String field, float x, float y, float z) {
        expect(at, field);
        out.f32(x);
        out.f32(y);
        out.f32(z);
        phase = at + 1;
    }

    /** Once every pose, contact and node is written, the deformable count is due, then the message is done. */
    private void afterSection() {
        if (phase == BODIES && posesWritten == poses && contactsWritten == contacts && deformablesWritten == 0
                && nodesDue == 0 && !deformableCountWritten) {
            out.u16(deformables);
            deformableCountWritten = true;
        }
        if (deformableCountWritten && deformablesWritten == deformables && nodesWritten == nodes) {
            phase = DONE;
        }
    }

    private void expect(int at, String call) {
        if (phase != at) {
            throw new IllegalStateException("STATE: " + call + "() out of order"
                + (phase == IDLE ? " (begin() first)" : ""));
        }
    }

    private static void count(String field, int n, int max) {
        if (n < 0 || n > max) {
            throw new StreamFormatException("a STATE holds 0.." + max + " " + field + ", had " + n);
        }
    }
}
