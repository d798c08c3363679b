package dev.tflitearena.fuzz;

import dev.tflitearena.graph.Allocation;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Node;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.Tensor;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Random graphs for differential testing of the planners, each one a pure function of its seed. They aim at
 * what decides TFLite's offsets: sizes from 0 bytes to tens of MB, mostly small, often equal on purpose
 * (ties are broken by hash-set order and introsort); chains, fan-out and residual branches; several
 * temporaries per node, some persistent; every combination of in-place flags, with inputs sized to qualify;
 * variables, constants, optional (-1) inputs, inputs nobody produces, outputs nobody consumes, graph inputs
 * consumed late or also graph outputs, outputs turned persistent by their kernel; up to 200 nodes and several
 * subgraphs; sometimes preserve_all_tensors. Tensor indices are shuffled half the time, as hash-set order
 * depends on them.
 *
 * <p>No tensor is produced twice (by two nodes, or by a node and as a graph input): TFLite then places it
 * twice, and the first placement, which may be the one at offset 0, keeps its space with no tensor pointing
 * at it, so the native plan's base can no longer be read from the tensors' pointers.
 */
public final class RandomGraphs {
    /** The native runtime always aligns tensors to 64 bytes. */
    private static final int TENSOR_ALIGNMENT = 64;
    private static final int ALL_INPLACE_FLAGS = 32;
    private static final long MB = 1 << 20;

    private RandomGraphs() {
    }

    /** The seed of graph {@code index} of a run seeded with {@code runSeed}: SplitMix64, so nearby runs differ. */
    public static long graphSeed(long runSeed, long index) {
        long z = runSeed * 0x9E3779B97F4A7C15L + index + 1;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static Graph generate(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean preserveAll = random.nextInt(10) == 0;
        int count = random.nextInt(10) < 7 ? 1 : 2 + random.nextInt(2);
        List<Subgraph> subgraphs = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            subgraphs.add(new SubgraphMaker(random.split(), s).make());
        }
        return new Graph(new Graph.Options(TENSOR_ALIGNMENT, preserveAll), subgraphs);
    }

    /** One subgraph, grown node by node in execution order. */
    private static final class SubgraphMaker {
        private final SplittableRandom random;
        private final int index;
        private final List<Tensor> tensors = new ArrayList<>();
        private final List<Node> nodes = new ArrayList<>();
        private final List<Long> usedSizes = new ArrayList<>();
        private final List<Integer> produced = new ArrayList<>();
        private final List<Integer> inputs = new ArrayList<>();
        private final List<Integer> constants = new ArrayList<>();
        private final List<Integer> variables = new ArrayList<>();

        SubgraphMaker(SplittableRandom random, int index) {
            this.random = random;
            this.index = index;
        }

        Subgraph make() {
            int inputCount = pick(10, 60, 20, 10);
            for (int i = 0; i < inputCount; i++) {
                inputs.add(tensor("input", size(), Allocation.ARENA_RW, false));
            }
            int constantCount = pick(50, 25, 15, 10);
            for (int i = 0; i < constantCount; i++) {
                constants.add(tensor("constant", random.nextInt(4096), Allocation.MMAP_RO, false));
            }
            int variableCount = pick(70, 15, 10, 5);
            for (int i = 0; i < variableCount; i++) {
                variables.add(tensor("variable", variableSize(), Allocation.ARENA_RW_PERSISTENT, true));
            }
            if (chance(5)) {
                // TFLite accepts a plain rw tensor in the variables list; it lives from node 0 to the end.
                variables.add(tensor("pinned", size(), Allocation.ARENA_RW, false));
            }
            int nodeCount = nodeCount();
            for (int n = 0; n < nodeCount; n++) {
                addNode(n);
            }
            return shuffled(new Subgraph(index, index == 0 ? "main" : "subgraph" + index, tensors, nodes,
                    toArray(inputs), graphOutputs(), toArray(variables)));
        }

        private int nodeCount() {
            int k = random.nextInt(100);
            if (k < 3) {
                return 0;
            }
            if (k < 60) {
                return 1 + random.nextInt(12);
            }
            return k < 90 ? 13 + random.nextInt(48) : 61 + random.nextInt(140);
        }

        private void addNode(int n) {
            int inplace = chance(35) ? random.nextInt(ALL_INPLACE_FLAGS) : 0;
            int[] nodeInputs = nodeInputs(inplace == 0);
            int outputCount = pick(3, 80, 12, 5);
            int[] outputs = new int[outputCount];
            for (int o = 0; o < outputCount; o++) {
                outputs[o] = output(o, inplace, nodeInputs);
            }
            int[] temporaries = temporaries(outputs);
            int[] intermediates = chance(2) ? new int[]{tensor("intermediate", size(), Allocation.ARENA_RW, false)}
                    : new int[0];
            nodes.add(new Node("NODE" + n, nodeInputs, outputs, temporaries, intermediates, inplace));
            for (int t : outputs) {
                if (t >= 0) {
                    produced.add(t);
                }
            }
        }

        /**
         * @param orphans whether inputs nobody produces may be drawn: not for a node that may share an input in
         *                place, since an alias of a tensor TFLite never allocates gets no memory at all
         */
        private int[] nodeInputs(boolean orphans) {
            int count = pick(5, 45, 30, 15, 5);
            int[] chosen = new int[count];
            for (int i = 0; i < count; i++) {
                chosen[i] = nodeInput(chosen, i, orphans);
            }
            return chosen;
        }

        private int nodeInput(int[] chosen, int position, boolean orphans) {
            int k = random.nextInt(100);
            if (k < 40 && !produced.isEmpty()) {
                return produced.get(produced.size() - 1);
            }
            if (k < 65 && !produced.isEmpty()) {
                int recent = Math.min(5, produced.size());
                return produced.get(produced.size() - 1 - random.nextInt(recent));
            }
            if (k < 75 && !produced.isEmpty()) {
                return any(produced);
            }
            if (k < 83 && !inputs.isEmpty()) {
                return any(inputs);
            }
            if (k < 88 && !constants.isEmpty()) {
                return any(constants);
            }
            if (k < 92 && !variables.isEmpty()) {
                return any(variables);
            }
            if (k < 96) {
                return -1;
            }
            if ((k < 98 || !orphans) && position > 0) {
                return chosen[random.nextInt(position)];
            }
            if (!orphans) {
                return -1;
            }
            // Consumed but never produced: TFLite never allocates it.
            return tensor("orphan", size(), Allocation.ARENA_RW, false);
        }

        private int output(int position, int inplace, int[] nodeInputs) {
            if (position > 0 && chance(2)) {
                return -1;
            }
            long bytes = size();
            if (inplace != 0 && position == 0 && chance(60)) {
                // The size of an input the flags may share, so that sharing can happen.
                int k = random.nextInt(Math.min(3, Math.max(nodeInputs.length, 1)));
                if (k < nodeInputs.length && nodeInputs[k] >= 0) {
                    bytes = tensors.get(nodeInputs[k]).bytes();
                }
            }
            // A kernel may turn its output persistent, but not an output it may share in place: TFLite would
            // then give it no memory at all, a graph it could not run.
            boolean persistent = (inplace == 0 || position > 0) && chance(3);
            return tensor("output", bytes, persistent ? Allocation.ARENA_RW_PERSISTENT : Allocation.ARENA_RW, false);
        }

        private int[] temporaries(int[] outputs) {
            if (!chance(25)) {
                return new int[0];
            }
            // Now and then more than 13, so that the node's hash set grows past its first bucket count.
            int count = chance(5) ? 14 + random.nextInt(30) : 1 + random.nextInt(4);
            long shared = outputs.length > 0 && outputs[0] >= 0 && chance(30) ? tensors.get(outputs[0]).bytes()
                    : size();
            boolean allEqual = chance(50);
            int[] temporaries = new int[count];
            for (int i = 0; i < count; i++) {
                temporaries[i] = tensor("temporary", allEqual ? shared : size(),
                        chance(15) ? Allocation.ARENA_RW_PERSISTENT : Allocation.ARENA_RW, false);
            }
            return temporaries;
        }

        private int[] graphOutputs() {
            List<Integer> outputs = new ArrayList<>();
            if (!nodes.isEmpty()) {
                for (int t : nodes.get(nodes.size() - 1).outputs()) {
                    if (t >= 0) {
                        outputs.add(t);
                    }
                }
            }
            int extra = pick(50, 30, 20);
            for (int i = 0; i < extra && !produced.isEmpty(); i++) {
                outputs.add(any(produced));
            }
            if (chance(5) && !inputs.isEmpty()) {
                outputs.add(any(inputs));
            }
            if (chance(2)) {
                outputs.add(-1);
            }
            return toArray(outputs);
        }

        /** Mostly small, some large, now and then tens of MB; often a size already used, to make ties. */
        private long size() {
            if (!usedSizes.isEmpty() && chance(30)) {
                return any(usedSizes);
            }
            int k = random.nextInt(100);
            long bytes;
            if (k < 5) {
                bytes = 0;
            } else if (k < 10) {
                bytes = 1 + random.nextInt(4);
            } else if (k < 60) {
                bytes = 5 + random.nextInt(4092);
            } else if (k < 90) {
                bytes = 4096 + random.nextLong(MB);
            } else if (k < 99) {
                bytes = MB + random.nextLong(7 * MB);
            } else {
                bytes = 8 * MB + random.nextLong(40 * MB);
            }
            if (chance(30)) {
                bytes = (bytes + TENSOR_ALIGNMENT - 1) / TENSOR_ALIGNMENT * TENSOR_ALIGNMENT;
            }
            usedSizes.add(bytes);
            return bytes;
        }

        /**
         * Variables are zeroed by TFLite on every allocation: kept small so that graphs stay cheap, and never
         * empty, as TFLite then refuses to allocate (a variable must have memory to be zeroed).
         */
        private long variableSize() {
            return 1 + random.nextInt(8191);
        }

        private int tensor(String role, long bytes, Allocation allocation, boolean variable) {
            int t = tensors.size();
            tensors.add(new Tensor(t, role + t, bytes, allocation, variable, "UINT8", new int[]{(int) bytes}));
            return t;
        }

        /** Renumbers the tensors by a random permutation, half the time. */
        private Subgraph shuffled(Subgraph s) {
            if (chance(50)) {
                return s;
            }
            int[] to = new int[s.tensors().size()];
            for (int i = 0; i < to.length; i++) {
                to[i] = i;
            }
            for (int i = to.length - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int swap = to[i];
                to[i] = to[j];
                to[j] = swap;
            }
            return GraphEdits.renumbered(s, to);
        }

        /** An index drawn with the given weights, in percent. */
        private int pick(int... weights) {
            int k = random.nextInt(100);
            for (int i = 0; i < weights.length; i++) {
                k -= weights[i];
                if (k < 0) {
                    return i;
                }
            }
            return weights.length - 1;
        }

        private boolean chance(int percent) {
            return random.nextInt(100) < percent;
        }

        private <T> T any(List<T> list) {
            return list.get(random.nextInt(list.size()));
        }

        private static int[] toArray(List<Integer> list) {
            return list.stream().mapToInt(Integer::intValue).toArray();
        }
    }
}
