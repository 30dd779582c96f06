package org.hapticsd.physics.broadphase;

import java.util.Arrays;

/**
 * A bounding-volume hierarchy of axis-aligned boxes that is updated in place as items move: Goldsmith and Salmon's
 * incremental insertion with the surface-area cost (Goldsmith and Salmon, "Automatic Creation of Object Hierarchies
 * for Ray Tracing", 1987), kept balanced by AVL rotations, as in Box2D's and Bullet's dynamic trees. Each leaf holds
 * one item (a body index) and the box given for it, which the caller makes larger than the item ("fat") so that an
 * item moving a little keeps its leaf.
 *
 * <p>Insertion walks down from the root, at each node comparing the cost of making the new leaf a sibling of the
 * whole subtree against the cheapest way into either child; the cost of a node is its surface area, since the
 * chance that a random query box overlaps a box grows with its surface area. After each insertion or removal the
 * path to the root is refitted and rotated where one child is more than one level taller than the other, which
 * bounds the height by about 1.44·log₂ n. When many leaves move at once, {@link #moveAll} rebuilds the whole
 * hierarchy top down instead, splitting at the median centre (balanced, {@code O(n log n)}).
 *
 * <p>Nodes live in parallel arrays indexed by node number, linked by indices, with a free list: {@link #insert} and
 * {@link #move} allocate only when the pool must grow beyond any earlier size (at scene set-up: a tree of n leaves
 * uses 2n − 1 nodes, and {@link #move} frees one node before it takes one), and {@link #query} never allocates.
 * Boxes must be finite. Not thread-safe.
 */
public final class DynamicAabbTree {

    /** No node: an empty child, the root's parent, the end of the free list. */
    public static final int NULL = -1;

    private static final int STRIDE = 6;

    /** minX, minY, minZ, maxX, maxY, maxZ per node. */
    private double[] boxes;
    private int[] parent;
    private int[] left;
    private int[] right;
    /** Leaves 0; an internal node 1 + the taller child's height; free nodes −1. */
    private int[] height;
    /** A leaf's item; −1 for internal and free nodes. */
    private int[] item;
    private int root = NULL;
    private int freeList = NULL;
    private int capacity;
    private int leafCount;
    /** Depth-first traversal stack of {@link #query}: the pending right children, at most the height plus one. */
    private int[] stack;
    /** {@link #moveAll}'s leaves, in the order the rebuild partitions them. */
    private int[] buildLeaves;

    public DynamicAabbTree(int nodeCapacity) {
        capacity = 0;
        boxes = new double[0];
        parent = new int[0];
        left = new int[0];
        right = new int[0];
        height = new int[0];
        item = new int[0];
        stack = new int[0];
        buildLeaves = new int[0];
        ensureCapacity(Math.max(1, nodeCapacity));
    }

    /** Grows the node pool to at least {@code nodes} nodes. Allocates when growing. */
    public void ensureCapacity(int nodes) {
        if (nodes <= capacity) {
            return;
        }
        int old = capacity;
        capacity = nodes;
        boxes = Arrays.copyOf(boxes, STRIDE * nodes);
        parent = Arrays.copyOf(parent, nodes);
        left = Arrays.copyOf(left, nodes);
        right = Arrays.copyOf(right, nodes);
        height = Arrays.copyOf(height, nodes);
        item = Arrays.copyOf(item, nodes);
        stack = Arrays.copyOf(stack, nodes + 1);
        buildLeaves = Arrays.copyOf(buildLeaves, nodes);
        // New nodes join the free list, lowest number first.
        for (int node = nodes - 1; node >= old; node--) {
            height[node] = -1;
            item[node] = -1;
            parent[node] = freeList;
            freeList = node;
        }
    }

    /**
     * Adds a leaf for {@code leafItem} with this box and returns the leaf's node number, which stays the leaf's until
     * {@link #remove}. Allocates only when the node pool grows.
     */
    public int insert(int leafItem, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        int leaf = allocateNode();
        setBox(leaf, minX, minY, minZ, maxX, maxY, maxZ);
        item[leaf] = leafItem;
        height[leaf] = 0;
        left[leaf] = NULL;
        right[leaf] = NULL;
        insertLeaf(leaf);
        leafCount++;
        return leaf;
    }

    /** Removes the leaf; its node number may be reused by a later insertion. */
    public void remove(int leaf) {
        requireLeaf(leaf);
        removeLeaf(leaf);
        freeNode(leaf);
        leafCount--;
    }

    /**
     * Gives the leaf a new box and moves it to where that box belongs in the tree; the leaf keeps its node number.
     * Never allocates: the removal frees the internal node the insertion takes.
     */
    public void move(int leaf, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        requireLeaf(leaf);
        requireBox(minX, minY, minZ, maxX, maxY, maxZ);
        removeLeaf(leaf);
        setBox(leaf, minX, minY, minZ, maxX, maxY, maxZ);
        insertLeaf(leaf);
    }

    /**
     * Gives {@code count} leaves new boxes at once ({@code boxes}: minX, minY, minZ, maxX, maxY, maxZ per leaf, in the
     * order of {@code leaves}) and rebuilds the whole hierarchy over every leaf, top down: each node splits its
     * leaves at the median of their centres along the longest side of the centres' bounds. When many leaves move in
     * one step (a pile dropped as one, every body leaving its fat box in the same step) this costs
     * {@code O(n log n)} once instead of a removal and a surface-area insertion with rotations per leaf. The
     * result is balanced as {@link #validate} requires (a node's halves differ by at most one leaf). Leaves keep
     * their node numbers; internal nodes are renumbered from the pool. Never allocates.
     */
    public void moveAll(int[] leaves, double[] boxes, int count) {
        for (int k = 0; k < count; k++) {
            requireLeaf(leaves[k]);
            int b = STRIDE * k;
            requireBox(boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5]);
        }
        for (int k = 0; k < count; k++) {
            int b = STRIDE * k;
            setBox(leaves[k], boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5]);
        }
        rebuild();
    }

    /** Frees every internal node and builds the hierarchy anew over the leaves (see {@link #moveAll}). */
    private void rebuild() {
        if (root == NULL) {
            return;
        }
        int n = 0;
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            int node = stack[--top];
            if (height[node] == 0) {
                buildLeaves[n++] = node;
            } else {
                stack[top++] = left[node];
                stack[top++] = right[node];
                freeNode(node);
            }
        }
        root = build(0, n);
        parent[root] = NULL;
    }

    /** The subtree over {@code buildLeaves[from..to)}, {@code to - from >= 1}; returns its root. */
    private int build(int from, int to) {
        if (to - from == 1) {
            return buildLeaves[from];
        }
        int axis = longestCentreAxis(from, to);
        int middle = (from + to) >>> 1;
        selectByCentre(from, to, middle, axis);
        int l = build(from, middle);
        int r = build(middle, to);
        int node = allocateNode();
        left[node] = l;
        right[node] = r;
        parent[l] = node;
        parent[r] = node;
        height[node] = 1 + Math.max(height[l], height[r]);
        union(node, l, r);
        return node;
    }

    /** 0, 1 or 2: the axis along which the centres of {@code buildLeaves[from..to)} spread most. */
    private int longestCentreAxis(int from, int to) {
        double minX = Double.POSITIVE_INFINITY;
        double minY = Double.POSITIVE_INFINITY;
        double minZ = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = Double.NEGATIVE_INFINITY;
        double maxZ = Double.NEGATIVE_INFINITY;
        for (int k = from; k < to; k++) {
            int b = STRIDE * buildLeaves[k];
            double x = boxes[b] + boxes[b + 3];
            double y = boxes[b + 1] + boxes[b + 4];
            double z = boxes[b + 2] + boxes[b + 5];
            minX = Math.min(minX, x);
            maxX = Math.max(maxX, x);
            minY = Math.min(minY, y);
            maxY = Math.max(maxY, y);
            minZ = Math.min(minZ, z);
            maxZ = Math.max(maxZ, z);
        }
        double dx = maxX - minX;
        double dy = maxY - minY;
        double dz = maxZ - minZ;
        return dx >= dy && dx >= dz ? 0 : dy >= dz ? 1 : 2;
    }

    /**
     * Reorders {@code buildLeaves[from..to)} so that the leaf at {@code nth} has the centre it would have sorted
     * along {@code axis}, none before it a larger one and none after it a smaller one (Hoare's selection, the pivot
     * the median of three).
     */
    private void selectByCentre(int from, int to, int nth, int axis) {
        int lo = from;
        int hi = to - 1;
        while (hi > lo) {
            int mid = (lo + hi) >>> 1;
            double pivot = median(centre(buildLeaves[lo], axis), centre(buildLeaves[mid], axis),
                centre(buildLeaves[hi], axis));
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (centre(buildLeaves[i], axis) < pivot) {
                    i++;
                }
                while (centre(buildLeaves[j], axis) > pivot) {
                    j--;
                }
                if (i <= j) {
                    int t = buildLeaves[i];
                    buildLeaves[i] = buildLeaves[j];
                    buildLeaves[j] = t;
                    i++;
                    j--;
                }
            }
            if (nth <= j) {
                hi = j;
            } else if (nth >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private double centre(int node, int axis) {
        int b = STRIDE * node + axis;
        return boxes[b] + boxes[b + 3];
    }

    private static double median(double a, double b, double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    /**
     * Writes the items of the leaves whose boxes overlap the query box (touching counts) into {@code hits} and
     * returns how many there are; when more than {@code hits} holds, the rest are counted but not written.
     */
    public int query(double minX, double minY, double minZ, double maxX, double maxY, double maxZ, int[] hits) {
        if (root == NULL) {
            return 0;
        }
        int found = 0;
        int top = 0;
        stack[top++] = root;
        while (top > 0) {
            int node = stack[--top];
            int b = STRIDE * node;
            if (boxes[b] > maxX || boxes[b + 3] < minX || boxes[b + 1] > maxY || boxes[b + 4] < minY
                    || boxes[b + 2] > maxZ || boxes[b + 5] < minZ) {
                continue;
            }
            if (height[node] == 0) {
                if (found < hits.length) {
                    hits[found] = item[node];
                }
                found++;
            } else {
                stack[top++] = left[node];
                stack[top++] = right[node];
            }
        }
        return found;
    }

    /** Whether the boxes of two leaves (or any two nodes) overlap; touching counts. */
    public boolean overlap(int nodeA, int nodeB) {
        int a = STRIDE * nodeA;
        int b = STRIDE * nodeB;
        return boxes[a] <= boxes[b + 3] && boxes[b] <= boxes[a + 3] && boxes[a + 1] <= boxes[b + 4]
            && boxes[b + 1] <= boxes[a + 4] && boxes[a + 2] <= boxes[b + 5] && boxes[b + 2] <= boxes[a + 5];
    }

    /**
     * Whether the leaf's box contains this box (the item has not left its fat box).
     */
    public boolean contains(int leaf, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        int b = STRIDE * leaf;
        return boxes[b] <= minX && boxes[b + 1] <= minY && boxes[b + 2] <= minZ && maxX <= boxes[b + 3]
            && maxY <= boxes[b + 4] && maxZ <= boxes[b + 5];
    }

    /** Coordinate {@code k} of the node's box: 0..2 the minimum x, y, z, 3..5 the maximum. */
    public double bound(int node, int k) {
        return boxes[STRIDE * node + k];
    }

    public int leafCount() {
        return leafCount;
    }

    /** Height of the tree: 0 for a single leaf, −1 when empty. */
    public int height() {
        return root == NULL ? -1 : height[root];
    }

    /**
     * Checks every invariant (links, heights, each parent's box the union of its children's, balance within one
     * level, the leaf count, every node of the pool either in the tree or free) and throws
     * {@link IllegalStateException} naming the first broken one. For tests: O(n).
     */
    public void validate() {
        Checks.validate(this);
    }

    // ---- Insertion and removal ---------------------------------------------------------------------------

    private void insertLeaf(int leaf) {
        if (root == NULL) {
            root = leaf;
            parent[leaf] = NULL;
            return;
        }
        int sibling = bestSibling(leaf);
        int oldParent = parent[sibling];
        int newParent = allocateNode();
        parent[newParent] = oldParent;
        item[newParent] = -1;
        left[newParent] = sibling;
        right[newParent] = leaf;
        parent[sibling] = newParent;
        parent[leaf] = newParent;
        height[newParent] = height[sibling] + 1;
        union(newParent, sibling, leaf);
        if (oldParent == NULL) {
            root = newParent;
        } else if (left[oldParent] == sibling) {
            left[oldParent] = newParent;
        } else {
            right[oldParent] = newParent;
        }
        // From the new parent itself: a tall sibling and the new leaf can leave it unbalanced.
        refitUpwards(newParent);
    }

    /**
     * Walks down from the root, greedily (Box2D's rule): at a node, making the leaf its sibling costs twice the
     * area of their union (the new parent, and this node's box grown into it); descending into a child costs the
     * growth of this node's box, twice (it and the new parent below pay it), plus the child's growth (its union with
     * the leaf if it is a leaf, else how much its box must grow). Stops where pairing here is cheapest.
     */
    private int bestSibling(int leaf) {
        int node = root;
        while (height[node] > 0) {
            double combinedArea = unionArea(node, leaf);
            double here = 2.0 * combinedArea;
            double descend = 2.0 * (combinedArea - area(node));
            double costLeft = descend + childCost(left[node], leaf);
            double costRight = descend + childCost(right[node], leaf);
            if (here < costLeft && here < costRight) {
                break;
            }
            node = costLeft < costRight ? left[node] : right[node];
        }
        return node;
    }

    private double childCost(int child, int leaf) {
        double combined = unionArea(child, leaf);
        return height[child] == 0 ? combined : combined - area(child);
    }

    private void removeLeaf(int leaf) {
        if (leaf == root) {
            root = NULL;
            return;
        }
        int oldParent = parent[leaf];
        int grandParent = parent[oldParent];
        int sibling = left[oldParent] == leaf ? right[oldParent] : left[oldParent];
        if (grandParent == NULL) {
            root = sibling;
            parent[sibling] = NULL;
        } else {
            if (left[grandParent] == oldParent) {
                left[grandParent] = sibling;
            } else {
                right[grandParent] = sibling;
            }
            parent[sibling] = grandParent;
        }
        freeNode(oldParent);
        refitUpwards(grandParent);
    }

    /** From {@code node} to the root: rebalance, then recompute height and box from the children. */
    private void refitUpwards(int node) {
        while (node != NULL) {
            node = balance(node);
            int l = left[node];
            int r = right[node];
            height[node] = 1 + Math.max(height[l], height[r]);
            union(node, l, r);
            node = parent[node];
        }
    }

    /**
     * If one child of {@code a} is more than one level taller than the other, rotates that child up into
     * {@code a}'s place, handing the taller of its own children to it and the shorter to {@code a}. Returns the
     * node now in {@code a}'s place.
     *
     * <p>One rotation mends a difference of two, all that pairing the new leaf with a leaf or removing a leaf can
     * cause. But the cost rule pairs the new leaf with a whole subtree of height h when its box is far from or larger
     * than the subtree's (a box beside a row of boxes, a huge box), a difference of h; after the rotation {@code a}
     * holds the shorter child of the risen node beside its old short child, up to h − 2 apart, so {@code a} is
     * balanced in turn. By induction a node whose children are x ≥ o high comes out x or x + 1 high, which leaves the
     * risen node within one level of its other child; each call starts from a smaller difference, so at most h nest.
     */
    private int balance(int a) {
        if (height[a] < 2) {
            return a;
        }
        int b = left[a];
        int c = right[a];
        int difference = height[c] - height[b];
        int up;
        if (difference > 1) {
            up = rotateUp(a, c, b, false);
        } else if (difference < -1) {
            up = rotateUp(a, b, c, true);
        } else {
            return a;
        }
        balance(a);
        height[up] = 1 + Math.max(height[left[up]], height[right[up]]);
        return up;
    }

    /**
     * Rotates {@code up} (a child of {@code a}, on the left if {@code upIsLeft}) into {@code a}'s place: {@code a}
     * keeps {@code other} and takes the shorter child of {@code up}; {@code up} keeps the taller and takes {@code a}.
     */
    private int rotateUp(int a, int up, int other, boolean upIsLeft) {
        int f = left[up];
        int g = right[up];
        int aParent = parent[a];
        parent[up] = aParent;
        parent[a] = up;
        if (aParent == NULL) {
            root = up;
        } else if (left[aParent] == a) {
            left[aParent] = up;
        } else {
            right[aParent] = up;
        }
        int taller = height[f] > height[g] ? f : g;
        int shorter = taller == f ? g : f;
        // up: (a, taller); a: (other, shorter), on the same sides as before.
        left[up] = a;
        right[up] = taller;
        if (upIsLeft) {
            left[a] = shorter;
            right[a] = other;
        } else {
            left[a] = other;
            right[a] = shorter;
        }
        parent[shorter] = a;
        parent[taller] = up;
        union(a, left[a], right[a]);
        height[a] = 1 + Math.max(height[left[a]], height[right[a]]);
        union(up, left[up], right[up]);
        height[up] = 1 + Math.max(height[left[up]], height[right[up]]);
        return up;
    }

    // ---- Node pool ---------------------------------------------------------------------------------------

    private int allocateNode() {
        if (freeList == NULL) {
            ensureCapacity(2 * capacity);
        }
        int node = freeList;
        freeList = parent[node];
        parent[node] = NULL;
        left[node] = NULL;
        right[node] = NULL;
        height[node] = 0;
        item[node] = -1;
        return node;
    }

    private void freeNode(int node) {
        height[node] = -1;
        item[node] = -1;
        parent[node] = freeList;
        freeList = node;
    }

    private void requireLeaf(int leaf) {
        if (leaf < 0 || leaf >= capacity || height[leaf] != 0) {
            throw Checks.notALeaf(leaf);
        }
    }

    // ---- Boxes -------------------------------------------------------------------------------------------

    /**
     * Called before {@link #insert} or {@link #move} changes anything: a box refused half way would leave a leaf
     * taken out of the tree but still counted, or a node taken from the pool and never returned.
     */
    private static void requireBox(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (!(minX <= maxX && minY <= maxY && minZ <= maxZ) || !Double.isFinite(minX) || !Double.isFinite(maxX)
                || !Double.isFinite(minY) || !Double.isFinite(maxY) || !Double.isFinite(minZ)
                || !Double.isFinite(maxZ)) {
            throw Checks.badBox(minX, minY, minZ, maxX, maxY, maxZ);
        }
    }

    private void setBox(int node, double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        int b = STRIDE * node;
        boxes[b] = minX;
        boxes[b + 1] = minY;
        boxes[b + 2] = minZ;
        boxes[b + 3] = maxX;
        boxes[b + 4] = maxY;
        boxes[b + 5] = maxZ;
    }

    private void union(int node, int a, int b) {
        int n = STRIDE * node;
        int i = STRIDE * a;
        int j = STRIDE * b;
        for (int k = 0; k < 3; k++) {
            boxes[n + k] = Math.min(boxes[i + k], boxes[j + k]);
            boxes[n + 3 + k] = Math.max(boxes[i + 3 + k], boxes[j + 3 + k]);
        }
    }

    private double area(int node) {
        int b = STRIDE * node;
        return area(boxes[b], boxes[b + 1], boxes[b + 2], boxes[b + 3], boxes[b + 4], boxes[b + 5]);
    }

    private double unionArea(int a, int b) {
        int i = STRIDE * a;
        int j = STRIDE * b;
        return area(Math.min(boxes[i], boxes[j]), Math.min(boxes[i + 1], boxes[j + 1]),
            Math.min(boxes[i + 2], boxes[j + 2]), Math.max(boxes[i + 3], boxes[j + 3]),
            Math.max(boxes[i + 4], boxes[j + 4]), Math.max(boxes[i + 5], boxes[j + 5]));
    }

    /** Surface area of the box, m² (the constant factor 2 left out: only comparisons use it). */
    private static double area(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        double dx = maxX - minX;
        double dy = maxY - minY;
        double dz = maxZ - minZ;
        return dx * dy + dy * dz + dz * dx;
    }

    /**
     * The checks and their messages, in a class of their own so that the tree's constant pool holds no strings:
     * HotSpot resolves every string constant of a class on the thread whose call counts trigger the first C2
     * compilation of one of its methods (compileBroker.cpp, {@code resolve_string_constants}). The tree's methods
     * run a few times per step, so that compilation comes seconds into a run, on the stepping thread, and charged
     * it 744 bytes, which the world's zero-allocation test caught.
     */
    private static final class Checks {

        private Checks() {
        }

        static IllegalArgumentException notALeaf(int node) {
            return new IllegalArgumentException("node " + node + " is not a leaf");
        }

        static IllegalArgumentException badBox(double minX, double minY, double minZ, double maxX, double maxY,
                                               double maxZ) {
            return new IllegalArgumentException("a tree box must be finite and ordered, was [" + minX + ", " + minY
                + ", " + minZ + "] .. [" + maxX + ", " + maxY + ", " + maxZ + "]");
        }

        static void validate(DynamicAabbTree tree) {
            if (tree.root == NULL) {
                if (tree.leafCount != 0) {
                    throw new IllegalStateException("empty tree with " + tree.leafCount + " leaves counted");
                }
            } else {
                if (tree.parent[tree.root] != NULL) {
                    throw new IllegalStateException("the root has a parent");
                }
                int leaves = validate(tree, tree.root);
                if (leaves != tree.leafCount) {
                    throw new IllegalStateException(leaves + " leaves reachable, " + tree.leafCount + " counted");
                }
            }
            int free = 0;
            for (int node = tree.freeList; node != NULL && free <= tree.capacity; node = tree.parent[node]) {
                if (tree.height[node] != -1) {
                    throw new IllegalStateException("node " + node + " is on the free list and in use");
                }
                free++;
            }
            int used = tree.leafCount == 0 ? 0 : 2 * tree.leafCount - 1;
            if (used + free != tree.capacity) {
                throw new IllegalStateException(used + " nodes in the tree and " + free + " free, of a pool of "
                    + tree.capacity + ": nodes were lost");
            }
        }

        private static int validate(DynamicAabbTree tree, int node) {
            int[] left = tree.left;
            int[] right = tree.right;
            int[] height = tree.height;
            if (height[node] == 0) {
                if (left[node] != NULL || right[node] != NULL) {
                    throw new IllegalStateException("leaf " + node + " has children");
                }
                return 1;
            }
            int l = left[node];
            int r = right[node];
            if (tree.parent[l] != node || tree.parent[r] != node) {
                throw new IllegalStateException("node " + node + ": a child does not point back");
            }
            if (height[node] != 1 + Math.max(height[l], height[r])) {
                throw new IllegalStateException("node " + node + ": height " + height[node]);
            }
            if (Math.abs(height[l] - height[r]) > 1) {
                throw new IllegalStateException("node " + node + ": unbalanced, " + height[l] + " vs " + height[r]);
            }
            double[] boxes = tree.boxes;
            int n = STRIDE * node;
            int a = STRIDE * l;
            int b = STRIDE * r;
            for (int k = 0; k < 3; k++) {
                if (boxes[n + k] != Math.min(boxes[a + k], boxes[b + k])
                        || boxes[n + 3 + k] != Math.max(boxes[a + 3 + k], boxes[b + 3 + k])) {
                    throw new IllegalStateException("node " + node + ": box is not the union of its children's");
                }
            }
            return validate(tree, l) + validate(tree, r);
        }
    }
}
