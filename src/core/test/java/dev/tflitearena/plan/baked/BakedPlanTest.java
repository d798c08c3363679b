package dev.tflitearena.plan.baked;

import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.MetadataWriter;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.plan.Arena;
import dev.tflitearena.plan.Placement;
import dev.tflitearena.plan.Plan;
import dev.tflitearena.plan.SubgraphPlan;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The baked plan's entry: written and read back, what its fingerprint says, and every way to corrupt it. */
class BakedPlanTest {
    private static final byte[] MODEL = SampleModels.int8ConvNet();

    private static BakedPlan sample() {
        PlanFingerprint fingerprint = new PlanFingerprint(MODEL.length, PlanFingerprint.sha256(ByteBuffer.wrap(MODEL)),
                "2.20.0", true, "memory", false);
        SubgraphPlan primary = new SubgraphPlan(0, 4096, 128, List.of(
                new Placement(0, Arena.RW, 0, 1024, 0, 1, -1),
                new Placement(3, Arena.RW, 1024, 2048, 1, 2, -1),
                new Placement(4, Arena.RW, 1024, 2048, 2, 3, 3),
                new Placement(7, Arena.PERSISTENT, 0, 128, 0, 3, -1),
                new Placement(9, Arena.RW, -1, 0, 2, 2, -1)), true);
        SubgraphPlan body = new SubgraphPlan(2, 64, 0, List.of(new Placement(1, Arena.RW, 0, 64, 0, 0, -1)), false);
        return new BakedPlan(fingerprint, new Plan("best-of", List.of(primary, body)));
    }

    @Test
    void anEntryReadsBackAsThePlanItWasMadeFrom() {
        BakedPlan plan = sample();
        BakedPlan read = BakedPlan.decode(plan.encode(), "m.tflite");
        assertEquals(plan.plan(), read.plan());
        PlanFingerprint a = plan.fingerprint();
        PlanFingerprint b = read.fingerprint();
        assertEquals(a.modelBytes(), b.modelBytes());
        assertArrayEquals(a.modelSha256(), b.modelSha256());
        assertEquals(List.of(a.release(), a.releaseInputs(), a.order(), a.xnnpack()),
                List.of(b.release(), b.releaseInputs(), b.order(), b.xnnpack()));
    }

    @Test
    void theEntryTravelsInTheModelAndTheFingerprintKnowsTheModelUnderIt() {
        BakedPlan plan = sample();
        byte[] baked = MetadataWriter.put(MODEL, BakedPlan.NAME, plan.encode(), false);
        byte[] entry = TfliteFile.metadata(ByteBuffer.wrap(baked), BakedPlan.NAME).orElseThrow();
        assertEquals(plan.plan(), BakedPlan.decode(entry, "baked").plan());
        assertTrue(plan.fingerprint().madeFrom(ByteBuffer.wrap(baked)), "the model's bytes stay behind the new root");
        byte[] again = MetadataWriter.put(baked, BakedPlan.NAME, plan.encode(), true);
        assertTrue(plan.fingerprint().madeFrom(ByteBuffer.wrap(again)), "baked again over the first plan");

        byte[] edited = baked.clone();
        edited[edited.length - 5] ^= 1;
        assertFalse(plan.fingerprint().madeFrom(ByteBuffer.wrap(edited)));
        assertFalse(plan.fingerprint().madeFrom(ByteBuffer.wrap(MODEL, 0, MODEL.length - 1)));
    }

    @Test
    void differencesAreNamedOneByOne() {
        PlanFingerprint f = sample().fingerprint();
        assertEquals(List.of(), f.differences(true, "2.20.0", true, "memory", false));
        List<String> all = f.differences(false, "2.19.0", false, "model", true);
        assertEquals(5, all.size(), all.toString());
        assertTrue(all.get(0).startsWith("the model is not the one the plan was made from"), all.get(0));
        assertEquals("the plan follows TFLite 2.20.0's rules, this runtime is TFLite 2.19.0", all.get(1));
        assertEquals("the plan releases graph inputs after their last consumer, the session keeps them to the end",
                all.get(2));
        assertEquals("the plan is for the memory order, the session runs in the model order", all.get(3));
        assertEquals("the plan is for XNNPACK off, the session delegates to it", all.get(4));
    }

    @Test
    void everyTruncationIsRefusedAsTruncatedOrOutOfRange() {
        byte[] entry = sample().encode();
        for (int length = 0; length < entry.length; length++) {
            byte[] part = Arrays.copyOf(entry, length);
            InvalidModelException e = assertThrows(InvalidModelException.class, () -> BakedPlan.decode(part, "m"),
                    "length " + length);
            assertTrue(e.getMessage().startsWith("m: metadata 'tflite_arena.plan'"), e.getMessage());
        }
        InvalidModelException e = assertThrows(InvalidModelException.class,
                () -> BakedPlan.decode(Arrays.copyOf(entry, 6), "m"));
        assertEquals("m: metadata 'tflite_arena.plan' ends early (6 bytes): truncated", e.getMessage());
    }

    @Test
    void aWrongMagicVersionFlagCountOrTailIsRefusedNamingIt() {
        byte[] entry = sample().encode();
        assertRefused(with(entry, 0, (byte) 'X'), "does not start with 'TAPL'");
        assertRefused(withInt(entry, 4, 2), "has format version 2; this reader knows 1");
        // The release-inputs flag follows the model size, its SHA-256 and the release string "2.20.0".
        int flag = 4 + 4 + 8 + PlanFingerprint.SHA256_BYTES + 4 + "2.20.0".length();
        assertRefused(with(entry, flag, (byte) 7), "a flag holds 7, neither 0 nor 1");
        assertRefused(withInt(entry, flag + 1, Integer.MAX_VALUE), "2147483647 string bytes, more than its");
        assertRefused(Arrays.copyOf(entry, entry.length + 3), "has 3 bytes after the plan's end");
    }

    private static void assertRefused(byte[] entry, String message) {
        InvalidModelException e = assertThrows(InvalidModelException.class, () -> BakedPlan.decode(entry, "m"));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    private static byte[] with(byte[] entry, int at, byte value) {
        byte[] copy = entry.clone();
        copy[at] = value;
        return copy;
    }

    private static byte[] withInt(byte[] entry, int at, int value) {
        byte[] copy = entry.clone();
        ByteBuffer.wrap(copy).order(ByteOrder.LITTLE_ENDIAN).putInt(at, value);
        return copy;
    }
}
