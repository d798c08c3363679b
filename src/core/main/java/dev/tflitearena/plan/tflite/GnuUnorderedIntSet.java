package dev.tflitearena.plan.tflite;

import java.util.Arrays;

/**
 * A set of ints whose iteration order is exactly that of a default-constructed GNU libstdc++ (GCC 12)
 * {@code std::unordered_set<int32_t>} filled only by {@code insert}. TFLite's ArenaPlanner keeps one such set
 * per node, and its order decides ties in the allocation sort, so the order has to be bit-exact.
 *
 * <p>The model is libstdc++'s own layout: one singly linked chain of nodes behind a "before begin" sentinel,
 * and per bucket a pointer to the node <em>preceding</em> the bucket's first node. {@code std::hash<int>} is
 * the identity (a fast hash, so GCC 12's small-size linear scan has threshold 0 and never applies).
 */
public final class GnuUnorderedIntSet {

    /**
     * Bucket counts a default-constructed set goes through: _Prime_rehash_policy with max load factor 1.0
     * gives 13 on the first insert (its small fast table, asked for max(1, 11) + 1 = 12), then
     * _M_next_bkt(2 * old) over the library's prime table each time the size would exceed the bucket
     * count. Obtained from libstdc++.so (GCC 12) itself, not from the spec.
     */
    private static final int[] BUCKET_COUNTS = {
        13, 29, 59, 127, 257, 541, 1109, 2357, 5087, 10273, 20753, 42043, 85229, 172933, 351061, 712697,
        1447153, 2938679, 5967347, 12117689, 24607243, 49969847, 101473717, 206062531, 418451333,
        849749479, 1725587117,
    };

    private static final int NIL = -1;
    /** Node 0 is the sentinel; next[0] is the first node of the chain. */
    private static final int BEFORE_BEGIN = 0;

    private static final int[] SINGLE_BUCKET = {NIL};

    private int[] value = new int[8];
    private int[] next = new int[8];
    /** Per bucket: the node preceding the bucket's first node, or NIL when the bucket is empty. */
    private int[] bucketBefore;
    /** The bucket arrays of earlier growth steps, kept so that a set reused after {@link #reset} allocates none. */
    private final int[][] bucketsOfStep = new int[BUCKET_COUNTS.length][];
    private int size;
    /** libstdc++'s _M_next_resize: 0 until the first insert allocates real buckets. */
    private long nextResize;
    private int growthStep;

    public GnuUnorderedIntSet() {
        reset();
    }

    /**
     * Back to an empty default-constructed set, whose first insert picks the bucket count again. This is not
     * {@code std::unordered_set::clear}, which keeps the buckets and so changes later iteration orders.
     */
    public void reset() {
        next[BEFORE_BEGIN] = NIL;
        bucketBefore = SINGLE_BUCKET;
        size = 0;
        nextResize = 0;
        growthStep = -1;
    }

    /** Inserts {@code v} unless present; returns whether it was added, like {@code insert(v).second}. */
    public boolean insert(int v) {
        if (contains(v)) {
            return false;
        }
        if (size + 1L > nextResize) {
            if (growthStep + 1 >= BUCKET_COUNTS.length) {
                throw new IllegalStateException("set too large");
            }
            growthStep++;
            rehash(growthStep);
            nextResize = BUCKET_COUNTS[growthStep];
        }
        int node = ++size;
        if (node == value.length) {
            value = Arrays.copyOf(value, node * 2);
            next = Arrays.copyOf(next, node * 2);
        }
        value[node] = v;
        linkAtBucketBegin(bucket(v, bucketBefore.length), node);
        return true;
    }

    public boolean contains(int v) {
        int b = bucket(v, bucketBefore.length);
        int before = bucketBefore[b];
        if (before == NIL) {
            return false;
        }
        for (int n = next[before]; n != NIL && bucket(value[n], bucketBefore.length) == b; n = next[n]) {
            if (value[n] == v) {
                return true;
            }
        }
        return false;
    }

    public int size() {
        return size;
    }

    /** The bucket count libstdc++ would report; 1 for an empty set. */
    public int bucketCount() {
        return bucketBefore.length;
    }

    /** The elements in the order a range-for over the libstdc++ set yields them. */
    public int[] iterationOrder() {
        int[] out = new int[size];
        copyInIterationOrder(out, 0);
        return out;
    }

    /** Writes the elements in iteration order into {@code out} from index {@code at}; returns how many. */
    public int copyInIterationOrder(int[] out, int at) {
        int i = at;
        for (int n = next[BEFORE_BEGIN]; n != NIL; n = next[n]) {
            out[i++] = value[n];
        }
        return i - at;
    }

    /** size_t(int) sign-extends, so a negative value hashes as 2^64 + v; tensor indices take the cheap int path. */
    private static int bucket(int v, int bucketCount) {
        return v >= 0 ? v % bucketCount : (int) Long.remainderUnsigned(v, bucketCount);
    }

    /** _M_insert_bucket_begin. */
    private void linkAtBucketBegin(int b, int node) {
        int before = bucketBefore[b];
        if (before != NIL) {
            next[node] = next[before];
            next[before] = node;
        } else {
            next[node] = next[BEFORE_BEGIN];
            next[BEFORE_BEGIN] = node;
            if (next[node] != NIL) {
                // The old chain head now follows this node, so its bucket's predecessor changes.
                bucketBefore[bucket(value[next[node]], bucketBefore.length)] = node;
            }
            bucketBefore[b] = BEFORE_BEGIN;
        }
    }

    /** _M_rehash_aux for unique keys: walks the old chain front to back. */
    private void rehash(int step) {
        int bucketCount = BUCKET_COUNTS[step];
        if (bucketsOfStep[step] == null) {
            bucketsOfStep[step] = new int[bucketCount];
        }
        int[] buckets = bucketsOfStep[step];
        Arrays.fill(buckets, NIL);
        int p = next[BEFORE_BEGIN];
        next[BEFORE_BEGIN] = NIL;
        int beginBucket = 0;
        while (p != NIL) {
            int following = next[p];
            int b = bucket(value[p], bucketCount);
            if (buckets[b] == NIL) {
                next[p] = next[BEFORE_BEGIN];
                next[BEFORE_BEGIN] = p;
                buckets[b] = BEFORE_BEGIN;
                if (next[p] != NIL) {
                    buckets[beginBucket] = p;
                }
                beginBucket = b;
            } else {
                next[p] = next[buckets[b]];
                next[buckets[b]] = p;
            }
            p = following;
        }
        bucketBefore = buckets;
    }
}
