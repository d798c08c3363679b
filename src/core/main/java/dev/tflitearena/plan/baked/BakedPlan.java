package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan under TFLite's rules carried in the model's metadata, entry {@value #NAME}: what it is valid for
 * ({@link PlanFingerprint}) and every planned subgraph's placements, arena sizes and planner. Little-endian
 * values: the magic {@code TAPL}, the format version; the fingerprint (model bytes as u64, its SHA-256, the
 * release as a string, release-inputs as a byte, the order as a string, XNNPACK as a byte); the planner's name;
 * the subgraph count, then per subgraph its index (u32), rw and persistent arena bytes (u64), whether proven
 * optimal (a byte), the placement count and per placement: tensor (u32), arena (a byte: 0 rw, 1 persistent),
 * offset and bytes (i64), first, last and alias root (i32). A string is a u32 length and UTF-8.
 *
 * <p>Reading trusts nothing: a value out of range, a count the entry cannot hold, a short entry or bytes after
 * the end are {@link InvalidModelException}s naming what is wrong. Whether the offsets fit the prepared
 * interpreter is the validator's to say, as for every plan.
 */
public record BakedPlan(PlanFingerprint fingerprint, Plan plan) {
    /** The metadata entry's name. */
    public static final String NAME = "tflite_arena.plan";
    public static final int VERSION = 1;
    private static final byte[] MAGIC = "TAPL".getBytes(StandardCharsets.US_ASCII);
    /** The bytes of one placement: tensor, arena, offset, bytes, first, last, alias root. */
    private static final int PLACEMENT_BYTES = 4 + 1 + 8 + 8 + 4 + 4 + 4;

    public byte[] encode() {
        Out out = new Out();
        out.bytes(MAGIC).u32(VERSION);
        out.u64(fingerprint.modelBytes()).bytes(fingerprint.modelSha256()).string(fingerprint.release())
                .flag(fingerprint.releaseInputs()).string(fingerprint.order()).flag(fingerprint.xnnpack());
        out.string(plan.planner()).u32(plan.subgraphs().size());
        for (SubgraphPlan sp : plan.subgraphs()) {
            out.u32(sp.subgraph()).u64(sp.arenaBytes()).u64(sp.persistentBytes()).flag(sp.provenOptimal())
                    .u32(sp.placements().size());
            for (Placement p : sp.placements()) {
                out.u32(p.tensor()).flag(p.arena() == Arena.PERSISTENT).u64(p.offset()).u64(p.bytes())
                        .u32(p.first()).u32(p.last()).u32(p.aliasOf());
            }
        }
        return out.buffer.toByteArray();
    }

    /** The entry's bytes read back; {@code where} (the model's name) starts every error. */
    public static BakedPlan decode(byte[] data, String where) {
        String at = where + ": metadata '" + NAME + "'";
        ByteBuffer in = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        try {
            byte[] magic = new byte[MAGIC.length];
            in.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)) {
                throw new InvalidModelException(at + " does not start with 'TAPL': not a plan this project wrote");
            }
            int version = in.getInt();
            if (version != VERSION) {
                throw new InvalidModelException(at + " has format version " + version + "; this reader knows "
                        + VERSION + " (bake the model again with this version)");
            }
            long modelBytes = nonNegative(in.getLong(), at, "the model's size");
            byte[] sha = new byte[PlanFingerprint.SHA256_BYTES];
            in.get(sha);
            PlanFingerprint fingerprint = new PlanFingerprint(modelBytes, sha, string(in, at), flag(in, at),
                    string(in, at), flag(in, at));
            String planner = string(in, at);
            int subgraphs = count(in, 1, at, "subgraphs");
            List<SubgraphPlan> plans = new ArrayList<>(subgraphs);
            for (int s = 0; s < subgraphs; s++) {
                String sub = at + ", subgraph entry " + s;
                int index = (int) nonNegative(in.getInt(), sub, "the subgraph index");
                long arena = nonNegative(in.getLong(), sub, "the rw arena size");
                long persistent = nonNegative(in.getLong(), sub, "the persistent arena size");
                boolean optimal = flag(in, sub);
                int placements = count(in, PLACEMENT_BYTES, sub, "placements");
                List<Placement> list = new ArrayList<>(placements);
                for (int i = 0; i < placements; i++) {
                    int tensor = (int) nonNegative(in.getInt(), sub, "a tensor index");
                    Arena kind = flag(in, sub) ? Arena.PERSISTENT : Arena.RW;
                    long offset = in.getLong();
                    long bytes = nonNegative(in.getLong(), sub, "tensor " + tensor + "'s bytes");
                    if (offset < -1) {
                        throw new InvalidModelException(sub + ": tensor " + tensor + " has offset " + offset);
                    }
                    list.add(new Placement(tensor, kind, offset, bytes, in.getInt(), in.getInt(), in.getInt()));
                }
                plans.add(new SubgraphPlan(index, arena, persistent, list, optimal));
            }
            if (in.hasRemaining()) {
                throw new InvalidModelException(at + " has " + in.remaining() + " bytes after the plan's end");
            }
            return new BakedPlan(fingerprint, new Plan(planner, plans));
        } catch (BufferUnderflowException e) {
            throw new InvalidModelException(at + " ends early (" + data.length + " bytes): truncated");
        }
    }

    private static long nonNegative(long value, String at, String what) {
        if (value < 0) {
            throw new InvalidModelException(at + ": " + what + " is " + value);
        }
        return value;
    }

    /** A count of items of at least {@code itemBytes} each, which the rest of the entry must be able to hold. */
    private static int count(ByteBuffer in, int itemBytes, String at, String what) {
        int n = in.getInt();
        if (n < 0 || (long) n * itemBytes > in.remaining()) {
            throw new InvalidModelException(at + ": " + Integer.toUnsignedString(n) + " " + what
                    + ", more than its " + in.remaining() + " remaining bytes hold");
        }
        return n;
    }

    private static boolean flag(ByteBuffer in, String at) {
        byte b = in.get();
        if (b != 0 && b != 1) {
            throw new InvalidModelException(at + ": a flag holds " + b + ", neither 0 nor 1");
        }
        return b == 1;
    }

    private static String string(ByteBuffer in, String at) {
        int n = count(in, 1, at, "string bytes");
        byte[] utf8 = new byte[n];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** Little-endian values appended one after another. */
    private static final class Out {
        final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        private final ByteBuffer scratch = ByteBuffer.allocate(Long.BYTES).order(ByteOrder.LITTLE_ENDIAN);

        Out bytes(byte[] b) {
            buffer.writeBytes(b);
            return this;
        }

        Out u32(int v) {
            scratch.clear();
            buffer.write(scratch.putInt(v).array(), 0, Integer.BYTES);
            return this;
        }

        Out u64(long v) {
            scratch.clear();
            buffer.write(scratch.putLong(v).array(), 0, Long.BYTES);
            return this;
        }

        Out flag(boolean v) {
            buffer.write(v ? 1 : 0);
            return this;
        }

        Out string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            return u32(utf8.length).bytes(utf8);
        }
    }
}
