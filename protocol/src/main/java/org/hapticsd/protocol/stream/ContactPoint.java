package org.hapticsd.protocol.stream;

/**
 * One active contact point in a STATE, scene frame.
 *
 * @param bodyA  a body id, or {@link StreamProtocol#TOOL_ID} for the tool
 * @param bodyB  a body id, or the tool
 * @param pointM the contact point
 * @param normal unit normal pointing from A towards B
 * @param forceN the force on B (normal and friction together; A receives its opposite)
 * @param depthM penetration depth, ≥ 0
 */
public record ContactPoint(int bodyA, int bodyB, Vec3 pointM, Vec3 normal, Vec3 forceN, float depthM) {
    public ContactPoint {
        Checks.bodyOrTool("bodyA", bodyA);
        Checks.bodyOrTool("bodyB", bodyB);
        Checks.notNull("pointM", pointM);
        Checks.notNull("normal", normal);
        Checks.notNull("forceN", forceN);
    }
}
