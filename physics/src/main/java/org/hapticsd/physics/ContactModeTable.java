package org.hapticsd.physics;

import java.util.Arrays;

/**
 * The configured {@link ContactMode} of every pair of bodies, from four levels of setting (Springhead's four
 * {@code PHSceneIf::SetContactMode} overloads, seed 002), resolved with the precedence
 * <b>pair &gt; body &gt; group &gt; scene</b>: the most specific setting wins, whatever the order of the calls.
 * Within the body level, when both bodies carry a body setting, the later call wins — what Springhead's
 * overwrite-the-pair-matrix implementation gives for that level (so {@code NONE} for everything, then {@code LCP}
 * for the floor, makes the floor collide with every body, as in the manual's example).
 *
 * <p>Setting allocates (sorted arrays grow); resolving walks no collection and allocates nothing: an array read
 * per body and binary searches over the pair and group settings.
 */
final class ContactModeTable {

    /** Bodies start outside every group; group ids are {@code >= 1}. */
    static final int NO_GROUP = 0;

    private ContactMode sceneMode = ContactMode.LCP;

    private ContactMode[] bodyMode = new ContactMode[0];
    private long[] bodyModeCall = new long[0];
    private long calls;
    private int[] bodyGroup = new int[0];

    private int[] groupIds = new int[0];
    private ContactMode[] groupModes = new ContactMode[0];

    private long[] pairKeys = new long[0];
    private ContactMode[] pairModes = new ContactMode[0];

    void bodyAdded(int bodyCount) {
        bodyMode = Arrays.copyOf(bodyMode, bodyCount);
        bodyModeCall = Arrays.copyOf(bodyModeCall, bodyCount);
        bodyGroup = Arrays.copyOf(bodyGroup, bodyCount);
    }

    void setScene(ContactMode mode) {
        sceneMode = mode;
    }

    ContactMode scene() {
        return sceneMode;
    }

    /** Whether any setting (scene, body, group or pair) names {@code mode}: whether its model can get points. */
    boolean uses(ContactMode mode) {
        if (sceneMode == mode) {
            return true;
        }
        for (ContactMode m : bodyMode) {
            if (m == mode) {
                return true;
            }
        }
        for (ContactMode m : groupModes) {
            if (m == mode) {
                return true;
            }
        }
        for (ContactMode m : pairModes) {
            if (m == mode) {
                return true;
            }
        }
        return false;
    }

    /** {@code null} clears the body's setting. */
    void setBody(int body, ContactMode mode) {
        bodyMode[body] = mode;
        bodyModeCall[body] = ++calls;
    }

    void setGroupOf(int body, int group) {
        bodyGroup[body] = group;
    }

    int groupOf(int body) {
        return bodyGroup[body];
    }

    /** {@code null} clears the group's setting. */
    void setGroup(int group, ContactMode mode) {
        int at = Arrays.binarySearch(groupIds, group);
        if (mode == null) {
            if (at >= 0) {
                groupIds = remove(groupIds, at);
                groupModes = remove(groupModes, at);
            }
        } else if (at >= 0) {
            groupModes[at] = mode;
        } else {
            int insertAt = -at - 1;
            groupIds = insert(groupIds, insertAt, group);
            groupModes = insert(groupModes, insertAt, mode);
        }
    }

    /** {@code null} clears the pair's setting. */
    void setPair(int bodyA, int bodyB, ContactMode mode) {
        long key = pairKey(bodyA, bodyB);
        int at = Arrays.binarySearch(pairKeys, key);
        if (mode == null) {
            if (at >= 0) {
                pairKeys = remove(pairKeys, at);
                pairModes = remove(pairModes, at);
            }
        } else if (at >= 0) {
            pairModes[at] = mode;
        } else {
            int insertAt = -at - 1;
            pairKeys = insert(pairKeys, insertAt, key);
            pairModes = insert(pairModes, insertAt, mode);
        }
    }

    /** The mode set for this body itself ({@code setBodyContactMode}), or null when none was. */
    ContactMode bodyMode(int body) {
        return body < bodyMode.length ? bodyMode[body] : null;
    }

    /** The configured mode of the pair: pair, else body (later call first), else shared group, else scene. */
    ContactMode resolve(int bodyA, int bodyB) {
        if (pairKeys.length > 0) {
            int at = Arrays.binarySearch(pairKeys, pairKey(bodyA, bodyB));
            if (at >= 0) {
                return pairModes[at];
            }
        }
        ContactMode modeA = bodyMode[bodyA];
        ContactMode modeB = bodyMode[bodyB];
        if (modeA != null || modeB != null) {
            if (modeB == null) {
                return modeA;
            }
            if (modeA == null) {
                return modeB;
            }
            return bodyModeCall[bodyA] > bodyModeCall[bodyB] ? modeA : modeB;
        }
        int group = bodyGroup[bodyA];
        if (group != NO_GROUP && group == bodyGroup[bodyB]) {
            int at = Arrays.binarySearch(groupIds, group);
            if (at >= 0) {
                return groupModes[at];
            }
        }
        return sceneMode;
    }

    private static long pairKey(int bodyA, int bodyB) {
        int low = Math.min(bodyA, bodyB);
        int high = Math.max(bodyA, bodyB);
        return ((long) low << 32) | (high & 0xffffffffL);
    }

    private static int[] insert(int[] array, int at, int value) {
        int[] grown = new int[array.length + 1];
        System.arraycopy(array, 0, grown, 0, at);
        grown[at] = value;
        System.arraycopy(array, at, grown, at + 1, array.length - at);
        return grown;
    }

    private static long[] insert(long[] array, int at, long value) {
        long[] grown = new long[array.length + 1];
        System.arraycopy(array, 0, grown, 0, at);
        grown[at] = value;
        System.arraycopy(array, at, grown, at + 1, array.length - at);
        return grown;
    }

    private static ContactMode[] insert(ContactMode[] array, int at, ContactMode value) {
        ContactMode[] grown = new ContactMode[array.length + 1];
        System.arraycopy(array, 0, grown, 0, at);
        grown[at] = value;
        System.arraycopy(array, at, grown, at + 1, array.length - at);
        return grown;
    }

    private static int[] remove(int[] array, int at) {
        int[] shrunk = new int[array.length - 1];
        System.arraycopy(array, 0, shrunk, 0, at);
        System.arraycopy(array, at + 1, shrunk, at, array.length - at - 1);
        return shrunk;
    }

    private static long[] remove(long[] array, int at) {
        long[] shrunk = new long[array.length - 1];
        System.arraycopy(array, 0, shrunk, 0, at);
        System.arraycopy(array, at + 1, shrunk, at, array.length - at - 1);
        return shrunk;
    }

    private static ContactMode[] remove(ContactMode[] array, int at) {
        ContactMode[] shrunk = new ContactMode[array.length - 1];
        System.arraycopy(array, 0, shrunk, 0, at);
        System.arraycopy(array, at + 1, shrunk, at, array.length - at - 1);
        return shrunk;
    }
}
