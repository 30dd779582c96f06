package org.hapticsd.protocol.stream;

import java.util.List;

/**
 * The messages behind the spec's test vectors (docs/stream-protocol.md section 9), plus a few more for round trips.
 * Where a value is not exact in binary32 the spec prints its encoding.
 */
final class StreamSamples {
    private StreamSamples() {
    }

    static HelloMessage hello() {
        return new HelloMessage(2, 1000, "0.1.0");
    }

    /** One body of each primitive shape. */
    static SceneMessage scenePrimitives() {
        return new SceneMessage(7, "demo", 0.005f, List.of(
            new Body(0, "floor", Motion.STATIC, new Shape.Plane(new Vec3(0f, 0f, 1f), 0f), "", 0x808080ff,
                new Vec3(0f, 0f, -0.05f), Quat.IDENTITY),
            new Body(1, "ball", Motion.DYNAMIC, new Shape.Sphere(0.01f), "rubber", 0xff0000ff,
                new Vec3(0f, -0.05f, -0.04f), Quat.IDENTITY),
            new Body(2, "box", Motion.KINEMATIC, new Shape.Box(new Vec3(0.01f, 0.02f, 0.03f)), "wood", 0,
                new Vec3(0.5f, 0f, 0f), new Quat(0.5f, 0.5f, 0.5f, 0.5f)),
            new Body(3, "pill", Motion.DYNAMIC, new Shape.Capsule(0.006f, 0.015f), "", 0x00ff0080,
                new Vec3(0.05f, -0.05f, -0.04f), Quat.IDENTITY)));
    }

    /** A convex hull (a tetrahedron) and a one-triangle mesh. */
    static SceneMessage sceneMeshes() {
        return new SceneMessage(8, "meshes", 0.005f, List.of(
            new Body(10, "wedge", Motion.DYNAMIC, new Shape.ConvexHull(new float[] {
                0f, 0f, 0f, 0.25f, 0f, 0f, 0f, 0.25f, 0f, 0f, 0f, 0.25f}), "", 0,
                new Vec3(0f, 0f, 0f), Quat.IDENTITY),
            new Body(11, "tri", Motion.STATIC, new Shape.TriangleMesh(new float[] {
                0f, 0f, 0f, 1f, 0f, 0f, 0f, 1f, 0f}, new int[] {0, 1, 2}), "", 0,
                new Vec3(0f, 0f, -1f), Quat.IDENTITY)));
    }

    /** One pose and one tool contact. */
    static StateMessage state() {
        return new StateMessage(123_456L, 123_456_000_000L, 7, SafetyCode.ACTIVE, FaultCode.NONE, true, false,
            new Vec3(0.0625f, 0f, -0.03125f), new Vec3(0.0625f, 0f, -0.0234375f),
            new Vec3(0f, 0f, 1.5f), new Vec3(0f, 0f, 1.25f),
            new LoopStats(999.5f, 12_000L, 85_000L, 3L),
            List.of(new BodyPose(1, new Vec3(0f, -0.05f, -0.04f), Quat.IDENTITY)),
            List.of(new ContactPoint(1, StreamProtocol.TOOL_ID, new Vec3(0.0625f, 0f, -0.03f),
                new Vec3(0f, 0f, 1f), new Vec3(0f, 0f, 1.5f), 0.0015f)));
    }

    /** A STATE with no poses and no contacts: the fixed part alone. */
    static StateMessage emptyState() {
        return new StateMessage(0L, 0L, 0L, SafetyCode.GATED, FaultCode.NONE, false, false, Vec3.ZERO, Vec3.ZERO,
            Vec3.ZERO, Vec3.ZERO, new LoopStats(0f, 0L, 0L, 0L), List.of(), List.of());
    }

    /**
     * A loop whose physics runs over budget: the step's p99 is 142 % of the tick period (1.42 ms at 1 kHz), and the
     * rate sags to 953 Hz with 47 overruns.
     */
    static StateMessage stateOverBudget() {
        return new StateMessage(5000L, 5_000_000_000L, 1, SafetyCode.ACTIVE, FaultCode.NONE, true, false, Vec3.ZERO,
            Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, new LoopStats(953f, 250_000L, 1_420_000L, 47L, true, 142), List.of(),
            List.of());
    }

    /** The physics events: over budget, contacts dropped, back within budget. */
    static EventsMessage physicsEvents() {
        return new EventsMessage(List.of(
            new StreamEvent.PhysicsOverBudget(4000L, 1_420_000L, 800_000L),
            new StreamEvent.ContactsDropped(4100L, 12L, 40L),
            new StreamEvent.PhysicsWithinBudget(9000L, 610_000L, 800_000L)));
    }

    /** A deformable body (shape 7): three nodes, two edges, one triangle. */
    static SceneMessage sceneDeformable() {
        return new SceneMessage(9, "cloth", 0.005f, List.of(new Body(4, "sheet", Motion.DYNAMIC,
            new Shape.Deformable(new float[] {0, 0, 0.5f, 0.25f, 0, 0.5f, 0, 0.25f, 0.5f}, new int[] {0, 1, 1, 2},
                new int[] {0, 1, 2}), "", 0, Vec3.ZERO, Quat.IDENTITY)));
    }

    /** A STATE with the deformable body's nodes, its third node 12.5 cm lower. */
    static StateMessage stateDeformable() {
        return new StateMessage(2000L, 2_000_000_000L, 9, SafetyCode.ACTIVE, FaultCode.NONE, true, false, Vec3.ZERO,
            Vec3.ZERO, Vec3.ZERO, Vec3.ZERO, new LoopStats(1000f, 9000, 60000, 0, false, 3), List.of(), List.of(),
            List.of(new DeformableNodes(4, new float[] {0, 0, 0.5f, 0.25f, 0, 0.5f, 0, 0.25f, 0.375f})));
    }

    /** Two impulse collisions: bodies 3 and 4 in IMPULSE mode; the tool's impact transient on body 2. */
    static EventsMessage impulseEvents() {
        return new EventsMessage(List.of(
            new StreamEvent.ImpulseCollision(1200L, 3, 4, ContactModeCode.IMPULSE, 0.5f, 58.71f, 0.008418f, 1.0f),
            new StreamEvent.ImpulseCollision(1500L, StreamProtocol.TOOL_ID, 2, ContactModeCode.PENALTY, 0.045f,
                5.2839f, 0.0177f, 0.4f)));
    }

    /** One event of each kind. */
    static EventsMessage events() {
        return new EventsMessage(List.of(
            new StreamEvent.ContactBegan(100L, 1, StreamProtocol.TOOL_ID),
            new StreamEvent.Impact(100L, 1, StreamProtocol.TOOL_ID, 0.125f),
            new StreamEvent.ContactEnded(250L, 1, StreamProtocol.TOOL_ID),
            new StreamEvent.SafetyChanged(300L, SafetyCode.ACTIVE, SafetyCode.SAFE, FaultCode.WATCHDOG),
            new StreamEvent.DeviceDisconnected(300L),
            new StreamEvent.DeviceConnected(900L)));
    }

    static AckMessage ackAccepted() {
        return new AckMessage(42L, true, "");
    }

    static AckMessage ackRefused() {
        return new AckMessage(43L, false, "bad token");
    }

    static SubscribeMessage subscribe() {
        return new SubscribeMessage(60);
    }

    static CommandMessage pause() {
        return new CommandMessage(1L, "s3cret", new Command.Pause());
    }

    static CommandMessage loadScene() {
        return new CommandMessage(2L, "s3cret", new Command.LoadScene("pen"));
    }

    static CommandMessage setParameter() {
        return new CommandMessage(3L, "s3cret", new Command.SetParameter("contact.stiffnessNpm", 1500.0));
    }

    static CommandMessage moveHand() {
        return new CommandMessage(7L, "s3cret", new Command.MoveHand(0.01, -0.02, 0.05));
    }

    /** Every message above, and one COMMAND of each kind: the round-trip set. */
    static List<StreamMessage> all() {
        return List.of(hello(), scenePrimitives(), sceneMeshes(), sceneDeformable(), state(), stateDeformable(),
            emptyState(), events(), impulseEvents(),
            physicsEvents(), ackAccepted(),
            ackRefused(), subscribe(), pause(), loadScene(), setParameter(), moveHand(),
            new CommandMessage(4L, "", new Command.Resume()),
            new CommandMessage(5L, "", new Command.ResetScene()),
            new CommandMessage(6L, "", new Command.EmergencyStop()),
            new CommandMessage(0xFFFF_FFFFL, "tökén ✓", new Command.ResetStop()),
            new EventsMessage(List.of()),
            new SceneMessage(0xFFFF_FFFFL, "", 0f, List.of()));
    }

    static String hex(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(String.format("%02x", b & 0xFF));
        }
        return sb.toString();
    }

    static byte[] unhex(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return new byte[0];
        }
        String[] parts = t.split("\\s+");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }
}
