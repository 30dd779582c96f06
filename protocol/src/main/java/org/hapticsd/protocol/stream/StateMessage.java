package org.hapticsd.protocol.stream;

import java.util.List;

/**
 * STATE, server → client: one haptic tick as the subscribers see it. Every vector is in the scene frame (forces
 * are rotated out of the device frame by the server), so a viewer draws them without knowing the device mapping.
 *
 * @param tick            loop tick counter, 0..2^63-1
 * @param simTimeNs       simulated time since the scene was loaded, ns, 0..2^63-1
 * @param sceneRevision   revision of the SCENE whose body ids the poses and contacts use
 * @param safetyState     the safety layer's state
 * @param safetyFault     why it is SAFE, else NONE
 * @param deviceConnected the device is connected and delivering fresh states
 * @param paused          the simulation is paused (COMMAND PAUSE)
 * @param devicePositionM the device handle's position mapped into the scene
 * @param toolPositionM   the tool sphere's centre
 * @param renderedForceN  the force the renderer computed for the device, before the safety layer
 * @param commandedForceN the force commanded to the device after the safety layer (gate, ramp, clamp)
 * @param loop            loop statistics
 * @param poses           0..{@value StreamProtocol#MAX_POSES}: every kinematic and dynamic body (static bodies
 *                        keep their SCENE pose and need not be sent)
 * @param contacts        0..{@value StreamProtocol#MAX_CONTACTS} active contact points
 * @param deformables     version 2: each deformable body's node positions (0..{@value StreamProtocol#MAX_DEFORMABLES}
 *                        bodies, {@value StreamProtocol#MAX_DEFORMABLE_NODES} nodes in all)
 */
public record StateMessage(long tick, long simTimeNs, long sceneRevision, SafetyCode safetyState,
                           FaultCode safetyFault, boolean deviceConnected, boolean paused, Vec3 devicePositionM,
                           Vec3 toolPositionM, Vec3 renderedForceN, Vec3 commandedForceN, LoopStats loop,
                           List<BodyPose> poses, List<ContactPoint> contacts, List<DeformableNodes> deformables)
    implements StreamMessage {

    /** A STATE without deformable bodies. */
    public StateMessage(long tick, long simTimeNs, long sceneRevision, SafetyCode safetyState, FaultCode safetyFault,
                        boolean deviceConnected, boolean paused, Vec3 devicePositionM, Vec3 toolPositionM,
                        Vec3 renderedForceN, Vec3 commandedForceN, LoopStats loop, List<BodyPose> poses,
                        List<ContactPoint> contacts) {
        this(tick, simTimeNs, sceneRevision, safetyState, safetyFault, deviceConnected, paused, devicePositionM,
            toolPositionM, renderedForceN, commandedForceN, loop, poses, contacts, List.of());
    }

    public StateMessage {
        Checks.u63("tick", tick);
        Checks.u63("simTimeNs", simTimeNs);
        Checks.u32("sceneRevision", sceneRevision);
        Checks.notNull("safetyState", safetyState);
        Checks.notNull("safetyFault", safetyFault);
        Checks.notNull("devicePositionM", devicePositionM);
        Checks.notNull("toolPositionM", toolPositionM);
        Checks.notNull("renderedForceN", renderedForceN);
        Checks.notNull("commandedForceN", commandedForceN);
        Checks.notNull("loop", loop);
        poses = Checks.list("poses", poses, StreamProtocol.MAX_POSES);
        contacts = Checks.list("contacts", contacts, StreamProtocol.MAX_CONTACTS);
        deformables = Checks.list("deformables", deformables, StreamProtocol.MAX_DEFORMABLES);
        long nodes = 0;
        for (DeformableNodes d : deformables) {
            nodes += d.nodeCount();
        }
        if (nodes > StreamProtocol.MAX_DEFORMABLE_NODES) {
            throw new StreamFormatException("a STATE holds at most " + StreamProtocol.MAX_DEFORMABLE_NODES
                + " deformable nodes, had " + nodes);
        }
    }

    @Override
    public StreamMessageType type() {
        return StreamMessageType.STATE;
    }
}
