package dev.tflitearena.fuzz;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Lifetimes;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import dev.tflitearena.plan.baked.BakedPlan;
import dev.tflitearena.plan.baked.PlanFingerprint;
import dev.tflitearena.plan.tflite.SimpleMemoryArena;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Tampered copies of a baked model's plan ({@value BakedPlan#NAME}), each with what a session must make of it.
 * An edit that breaks the plan (an offset, size, arena, index or fingerprint that is wrong) must be refused
 * where the plan is required; an edit of what the validator never reads (a placement's lifetime or alias root,
 * the planner's name, the order of entries) must be accepted; raw bytes flipped or cut may be either, as long as
 * nothing crashes and every output is right. Every field of the entry is edited in turn, its values drawn from
 * the seed: those that wrap a sum (2^63-64), the limits of its type, off by one, misaligned, past the end.
 * An entry copied onto a model it was not made for is {@link #onOtherModel}.
 */
public final class BakedPlanTampering {
    /** What a session that requires the baked plan must do with a tampered one. */
    public enum Expect { REFUSED, ACCEPTED, EITHER }

    /** One tampered model: the edit in words, the bytes, and what is expected of it. */
    public record Tampered(String edit, byte[] model, Expect expect) {
    }

    private static final long ALIGNMENT = 64;
    private static final long[] WILD = {Long.MAX_VALUE - 63, Long.MAX_VALUE, 1L << 62, 1L << 40, Long.MIN_VALUE,
            -2, Integer.MAX_VALUE, 1L << 32};

    private final byte[] baked;
    private final BakedPlan plan;
    private final Graph graph;
    private final Random random;
    private final Consumer<Tampered> out;

    private BakedPlanTampering(byte[] baked, BakedPlan plan, Graph graph, long seed, Consumer<Tampered> out) {
        this.out = out;
        this.baked = baked;
        this.plan = plan;
        this.graph = graph;
        this.random = new Random(seed);
    }

    /**
     * Tampered copies of {@code baked}, which carries {@code plan} made for the prepared {@code graph}: each
     * field at least once, then {@code raw} random byte edits; each goes to {@code out} as it is made, so that
     * no more than one copy of a large model is held at a time.
     */
    public static void of(byte[] baked, BakedPlan plan, Graph graph, int raw, long seed, Consumer<Tampered> out) {
        BakedPlanTampering t = new BakedPlanTampering(baked, plan, graph, seed, out);
        t.fingerprint();
        t.subgraphEntries();
        t.arenas();
        t.placements();
        t.unread();
        for (int i = 0; i < raw; i++) {
            t.rawBytes();
        }
    }

    /** {@code plan}'s entry written into {@code other}, a model it was not made for. */
    public static Tampered onOtherModel(byte[] other, BakedPlan plan, String from) {
        return new Tampered("the entry of " + from + " on this model",
                MetadataWriter.put(other, BakedPlan.NAME, plan.encode(), true), Expect.REFUSED);
    }

    private void add(String edit, Expect expect, Plan edited) {
        add(edit, expect, new BakedPlan(plan.fingerprint(), edited));
    }

    private void add(String edit, Expect expect, BakedPlan edited) {
        out.accept(new Tampered(edit, MetadataWriter.put(baked, BakedPlan.NAME, edited.encode(), true), expect));
    }

    private void fingerprint() {
        PlanFingerprint f = plan.fingerprint();
        byte[] sha = f.modelSha256();
        sha[random.nextInt(sha.length)] ^= 1;
        List<PlanFingerprint> edits = List.of(
                new PlanFingerprint(f.modelBytes() + 1, f.modelSha256(), f.release(), f.releaseInputs(), f.order(),
                        f.xnnpack()),
                new PlanFingerprint(0, f.modelSha256(), f.release(), f.releaseInputs(), f.order(), f.xnnpack()),
                new PlanFingerprint(Long.MAX_VALUE, f.modelSha256(), f.release(), f.releaseInputs(), f.order(),
                        f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), sha, f.release(), f.releaseInputs(), f.order(), f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), f.modelSha256(), "2.19", f.releaseInputs(), f.order(),
                        f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), f.modelSha256(), "", f.releaseInputs(), f.order(), f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), f.modelSha256(), f.release(), !f.releaseInputs(), f.order(),
                        f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), f.modelSha256(), f.release(), f.releaseInputs(), "no such order",
                        f.xnnpack()),
                new PlanFingerprint(f.modelBytes(), f.modelSha256(), f.release(), f.releaseInputs(), f.order(),
                        !f.xnnpack()));
        String[] names = {"model size + 1", "model size 0", "model size 2^63-1", "a SHA-256 bit flipped",
                "release 2.19", "release empty", "release-inputs flipped", "an unknown order", "XNNPACK flipped"};
        for (int i = 0; i < edits.size(); i++) {
            add("fingerprint: " + names[i], Expect.REFUSED, new BakedPlan(edits.get(i), plan.plan()));
        }
    }

    private void subgraphEntries() {
        List<SubgraphPlan> entries = plan.plan().subgraphs();
        int n = entries.size();
        for (int index : new int[] {n, Integer.MAX_VALUE, -1, Integer.MIN_VALUE}) {
            int e = random.nextInt(n);
            add("subgraph entry " + e + " names subgraph " + index, Expect.REFUSED,
                    withEntry(e, sp -> new SubgraphPlan(index, sp.arenaBytes(), sp.persistentBytes(), sp.placements(),
                            sp.provenOptimal())));
        }
        List<SubgraphPlan> fewer = new ArrayList<>(entries);
        fewer.remove(random.nextInt(n));
        add("a subgraph entry left out", Expect.REFUSED, new Plan(plan.plan().planner(), fewer));
        List<SubgraphPlan> more = new ArrayList<>(entries);
        more.add(entries.get(random.nextInt(n)));
        add("a subgraph entry twice", Expect.REFUSED, new Plan(plan.plan().planner(), more));
        if (n > 1) {
            List<SubgraphPlan> duplicated = new ArrayList<>(entries);
            duplicated.set(1, entries.get(0));
            add("entry 1 a copy of entry 0", Expect.REFUSED, new Plan(plan.plan().planner(), duplicated));
            List<SubgraphPlan> renamed = new ArrayList<>(entries);
            SubgraphPlan second = entries.get(1);
            renamed.set(1, new SubgraphPlan(0, second.arenaBytes(), second.persistentBytes(), second.placements(),
                    second.provenOptimal()));
            add("entry 1 names subgraph 0", Expect.REFUSED, new Plan(plan.plan().planner(), renamed));
            List<SubgraphPlan> reversed = new ArrayList<>(entries);
            Collections.reverse(reversed);
            add("the subgraph entries reversed", Expect.ACCEPTED, new Plan(plan.plan().planner(), reversed));
        }
    }

    private void arenas() {
        for (int e = 0; e < plan.plan().subgraphs().size(); e++) {
            SubgraphPlan sp = plan.plan().subgraphs().get(e);
            long rw = sp.arenaBytes();
            long persistent = sp.persistentBytes();
            List<long[]> sizes = new ArrayList<>();
            for (long wild : new long[] {roundUp(rw) + ALIGNMENT, rw * 2 + ALIGNMENT, rw + (256L << 20), 1L << 40,
                    1L << 62, Long.MAX_VALUE, -1}) {
                sizes.add(new long[] {wild, persistent});
            }
            if (highestEnd(sp, Arena.RW) > 0) {
                sizes.add(new long[] {highestEnd(sp, Arena.RW) - 1, persistent});
            }
            for (long wild : new long[] {roundUp(persistent) + ALIGNMENT, 1L << 62, Long.MAX_VALUE, -1}) {
                sizes.add(new long[] {rw, wild});
            }
            if (highestEnd(sp, Arena.PERSISTENT) > 0) {
                sizes.add(new long[] {rw, highestEnd(sp, Arena.PERSISTENT) - 1});
            }
            for (long[] size : sizes) {
                add("subgraph entry " + e + ": arenas " + size[0] + " (rw) and " + size[1] + " (persistent)",
                        Expect.REFUSED, withEntry(e, x -> new SubgraphPlan(x.subgraph(), size[0], size[1],
                                x.placements(), x.provenOptimal())));
            }
            if (roundUp(rw) != rw) {
                add("subgraph entry " + e + ": rw arena rounded up to " + ALIGNMENT, Expect.ACCEPTED,
                        withEntry(e, x -> new SubgraphPlan(x.subgraph(), roundUp(rw), persistent, x.placements(),
                                x.provenOptimal())));
            }
        }
    }

    /** Every field of placements with memory, of placements without, and of the list of them. */
    private void placements() {
        for (int e = 0; e < plan.plan().subgraphs().size(); e++) {
            SubgraphPlan sp = plan.plan().subgraphs().get(e);
            List<Integer> withMemory = new ArrayList<>();
            List<Integer> without = new ArrayList<>();
            for (int i = 0; i < sp.placements().size(); i++) {
                (sp.placements().get(i).hasMemory() ? withMemory : without).add(i);
            }
            if (withMemory.isEmpty()) {
                continue;
            }
            int entry = e;
            int i = withMemory.get(random.nextInt(withMemory.size()));
            Placement p = sp.placements().get(i);
            String at = "subgraph entry " + e + ", tensor " + p.tensor() + ": ";
            long arena = p.arena() == Arena.RW ? sp.arenaBytes() : sp.persistentBytes();
            for (long offset : WILD) {
                add(at + "offset " + offset, Expect.REFUSED, withPlacement(entry, i, q -> offset(q, offset)));
            }
            long misaligned = p.offset() + 1 + random.nextInt((int) ALIGNMENT - 1);
            add(at + "offset " + misaligned + " (misaligned)", Expect.REFUSED,
                    withPlacement(entry, i, q -> offset(q, misaligned)));
            long past = roundUp(arena - p.bytes() + 1);
            add(at + "offset " + past + " (past the arena's end)", Expect.REFUSED,
                    withPlacement(entry, i, q -> offset(q, past)));
            for (long bytes : new long[] {p.bytes() + 1, p.bytes() - 1, 0, Long.MAX_VALUE, -1}) {
                add(at + "bytes " + bytes, Expect.REFUSED, withPlacement(entry, i, q -> new Placement(q.tensor(),
                        q.arena(), q.offset(), bytes, q.first(), q.last(), q.aliasOf())));
            }
            add(at + "the arena flipped", Expect.REFUSED, withPlacement(entry, i, q -> new Placement(q.tensor(),
                    q.arena() == Arena.RW ? Arena.PERSISTENT : Arena.RW, q.offset(), q.bytes(), q.first(), q.last(),
                    q.aliasOf())));
            int tensors = graph.subgraphs().get(sp.subgraph()).tensors().size();
            int other = sp.placements().get(random.nextInt(sp.placements().size())).tensor();
            for (int tensor : new int[] {tensors, Integer.MAX_VALUE, -1}) {
                add(at + "tensor index " + tensor, Expect.REFUSED, withPlacement(entry, i, q -> new Placement(tensor,
                        q.arena(), q.offset(), q.bytes(), q.first(), q.last(), q.aliasOf())));
            }
            if (other != p.tensor()) {
                add(at + "tensor index " + other + " (placed twice)", Expect.REFUSED, withPlacement(entry, i,
                        q -> new Placement(other, q.arena(), q.offset(), q.bytes(), q.first(), q.last(), q.aliasOf())));
            }
            add(at + "left out", Expect.REFUSED, withPlacements(entry, list -> {
                list.remove(i);
                return list;
            }));
            overlap(entry, sp, withMemory);
            if (!without.isEmpty()) {
                int j = without.get(random.nextInt(without.size()));
                add("subgraph entry " + e + ", tensor " + sp.placements().get(j).tensor() + ": memory at 0 for a "
                        + "tensor that needs none", Expect.EITHER, withPlacement(entry, j, q -> offset(q, 0)));
            }
        }
    }

    /** A placement moved onto another's bytes while both live: the one break the validator needs lifetimes for. */
    private void overlap(int entry, SubgraphPlan sp, List<Integer> withMemory) {
        Subgraph subgraph = graph.subgraphs().get(sp.subgraph());
        Lifetimes lifetimes = Lifetimes.of(subgraph, graph.options());
        List<Integer> shuffled = new ArrayList<>(withMemory);
        Collections.shuffle(shuffled, random);
        for (int a : shuffled) {
            for (int b : shuffled) {
                Placement pa = sp.placements().get(a);
                Placement pb = sp.placements().get(b);
                if (a == b || pa.arena() != Arena.RW || pb.arena() != Arena.RW || pa.bytes() == 0 || pb.bytes() == 0
                        || root(lifetimes, pa.tensor()) == root(lifetimes, pb.tensor())
                        || pb.offset() > sp.arenaBytes() - pa.bytes()
                        || !liveTogether(lifetimes, pa.tensor(), pb.tensor())) {
                    continue;
                }
                add("subgraph entry " + entry + ", tensor " + pa.tensor() + ": moved onto tensor " + pb.tensor()
                        + ", live at the same time", Expect.REFUSED, withPlacement(entry, a, q -> offset(q, pb.offset())));
                return;
            }
        }
    }

    private static int root(Lifetimes lifetimes, int tensor) {
        int root = lifetimes.aliasRoot(tensor);
        return root >= 0 ? root : tensor;
    }

    private static boolean liveTogether(Lifetimes lifetimes, int a, int b) {
        return lifetimes.allocNode(a) <= lifetimes.lastNode(b) && lifetimes.allocNode(b) <= lifetimes.lastNode(a);
    }

    /** What the validator never reads: changed, the plan must still be accepted. */
    private void unread() {
        add("the planner's name", Expect.ACCEPTED, new Plan("renamed \u2603", plan.plan().subgraphs()));
        for (int e = 0; e < plan.plan().subgraphs().size(); e++) {
            SubgraphPlan sp = plan.plan().subgraphs().get(e);
            add("subgraph entry " + e + ": proven optimal flipped", Expect.ACCEPTED, withEntry(e,
                    x -> new SubgraphPlan(x.subgraph(), x.arenaBytes(), x.persistentBytes(), x.placements(),
                            !x.provenOptimal())));
            if (sp.placements().isEmpty()) {
                continue;
            }
            int i = random.nextInt(sp.placements().size());
            int[][] wild = {{Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE}, {-7, Integer.MIN_VALUE, 99},
                    {Integer.MIN_VALUE, -1, -1}};
            for (int[] w : wild) {
                add("subgraph entry " + e + ", placement " + i + ": first, last and alias root " + Arrays.toString(w),
                        Expect.ACCEPTED, withPlacement(e, i, q -> new Placement(q.tensor(), q.arena(), q.offset(),
                                q.bytes(), w[0], w[1], w[2])));
            }
            add("subgraph entry " + e + ": placements shuffled", Expect.ACCEPTED, withPlacements(e, list -> {
                Collections.shuffle(list, random);
                return list;
            }));
        }
    }

    /** One to four bytes of the entry set at random, or the entry cut short or lengthened. */
    private void rawBytes() {
        byte[] entry = plan.encode();
        int kind = random.nextInt(4);
        byte[] edited;
        String edit;
        if (kind == 0) {
            int length = random.nextInt(entry.length);
            edited = Arrays.copyOf(entry, length);
            edit = "the entry cut to " + length + " of " + entry.length + " bytes";
        } else if (kind == 1) {
            edited = Arrays.copyOf(entry, entry.length + 1 + random.nextInt(16));
            edit = "the entry lengthened by " + (edited.length - entry.length) + " bytes";
        } else {
            edited = entry.clone();
            StringBuilder at = new StringBuilder();
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                int position = random.nextInt(edited.length);
                edited[position] = (byte) random.nextInt(256);
                at.append(at.length() == 0 ? "" : ", ").append(position);
            }
            edit = "bytes " + at + " of the entry set at random";
        }
        out.accept(new Tampered(edit, MetadataWriter.put(baked, BakedPlan.NAME, edited, true), Expect.EITHER));
    }

    private Plan withEntry(int entry, UnaryOperator<SubgraphPlan> change) {
        List<SubgraphPlan> entries = new ArrayList<>(plan.plan().subgraphs());
        entries.set(entry, change.apply(entries.get(entry)));
        return new Plan(plan.plan().planner(), entries);
    }

    private Plan withPlacements(int entry, UnaryOperator<List<Placement>> change) {
        return withEntry(entry, sp -> new SubgraphPlan(sp.subgraph(), sp.arenaBytes(), sp.persistentBytes(),
                change.apply(new ArrayList<>(sp.placements())), sp.provenOptimal()));
    }

    private Plan withPlacement(int entry, int index, UnaryOperator<Placement> change) {
        return withPlacements(entry, list -> {
            list.set(index, change.apply(list.get(index)));
            return list;
        });
    }

    private static Placement offset(Placement p, long offset) {
        return new Placement(p.tensor(), p.arena(), offset, p.bytes(), p.first(), p.last(), p.aliasOf());
    }

    private static long highestEnd(SubgraphPlan sp, Arena arena) {
        return sp.placements().stream().filter(p -> p.arena() == arena && p.hasMemory())
                .mapToLong(p -> p.offset() + p.bytes()).max().orElse(0);
    }

    private static long roundUp(long bytes) {
        return SimpleMemoryArena.alignUp(bytes, ALIGNMENT);
    }
}
