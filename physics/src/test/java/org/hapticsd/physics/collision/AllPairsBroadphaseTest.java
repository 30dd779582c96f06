package org.hapticsd.physics.collision;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.hapticsd.physics.geometry.Aabb;
import org.joml.Vector3d;
import org.junit.jupiter.api.Test;

class AllPairsBroadphaseTest {

    @Test
    void shouldPairEachMovingBodyWithOverlappingStaticsInOrder() {
        // Bodies: 0 plane (unbounded), 1 tool near 2, 2 static ball, 3 far static ball, 4 tool far from the balls.
        double[] boundsM = new double[5 * Aabb.STRIDE];
        Aabb.unbounded(boundsM, 0);
        Aabb.ofSphere(new Vector3d(0.0, 0.0, 0.0), 0.01, boundsM, 1);
        Aabb.ofSphere(new Vector3d(0.015, 0.0, 0.0), 0.01, boundsM, 2);
        Aabb.ofSphere(new Vector3d(5.0, 0.0, 0.0), 0.01, boundsM, 3);
        Aabb.ofSphere(new Vector3d(0.0, 9.0, 0.0), 0.01, boundsM, 4);
        int[] moving = {1, 4};
        int[] statics = {0, 2, 3};
        int[] pairA = new int[6];
        int[] pairB = new int[6];

        int count = AllPairsBroadphase.findPairs(moving, 2, statics, 3, boundsM, pairA, pairB);

        assertEquals(3, count);
        assertArrayEquals(new int[] {1, 1, 4}, Arrays.copyOf(pairA, count));
        assertArrayEquals(new int[] {0, 2, 0}, Arrays.copyOf(pairB, count));
    }

    @Test
    void shouldProduceNoPairsWithoutStatics() {
        double[] boundsM = new double[2 * Aabb.STRIDE];
        Aabb.ofSphere(new Vector3d(), 0.01, boundsM, 0);
        Aabb.ofSphere(new Vector3d(), 0.01, boundsM, 1);
        int count = AllPairsBroadphase.findPairs(new int[] {0, 1}, 2, new int[0], 0, boundsM, new int[0], new int[0]);
        assertEquals(0, count, "moving–moving pairs are not candidates");
    }
}
