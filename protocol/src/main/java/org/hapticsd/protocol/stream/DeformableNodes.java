package org.hapticsd.protocol.stream;

import java.util.Arrays;

/**
 * The node positions of one deformable body in a STATE (version 2): its SCENE body id and its nodes, scene frame,
 * xyz interleaved, as many as its SCENE shape has.
 */
public record DeformableNodes(int bodyId, float[] positionsM) {
    public DeformableNodes {
        Checks.bodyOrTool("bodyId", bodyId);
        if (bodyId == StreamProtocol.TOOL_ID) {
            throw new StreamFormatException("deformable bodyId must not be the tool's id");
        }
        positionsM = Checks.notNull("positionsM", positionsM).clone();
        int n = positionsM.length / 3;
        if (positionsM.length % 3 != 0 || n < 1 || n > StreamProtocol.MAX_DEFORMABLE_NODES) {
            throw new StreamFormatException("deformable positionsM must hold 1.." + StreamProtocol.MAX_DEFORMABLE_NODES
                + " xyz triples, had " + positionsM.length + " floats");
        }
    }

    public int nodeCount() {
        return positionsM.length / 3;
    }

    @Override
    public float[] positionsM() {
        return positionsM.clone();
    }

    float component(int i) {
        return positionsM[i];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DeformableNodes d && d.bodyId == bodyId && Arrays.equals(d.positionsM, positionsM);
    }

    @Override
    public int hashCode() {
        return 31 * bodyId + Arrays.hashCode(positionsM);
    }

    @Override
    public String toString() {
        return "DeformableNodes[body " + bodyId + ", " + nodeCount() + " nodes]";
    }
}
