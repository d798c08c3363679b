package dev.tflitearena.fuzz;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;

/**
 * Seeded hostile variants of good models: bit flips, truncation, a corrupt header, and numbers a reader
 * trusts (root offset, vtable entries, vector lengths, tensor dimensions, buffer, opcode and tensor indices)
 * set to values just or far out of range. Mutant i is a function of the seed, i and the sources alone, so a
 * run is replayed by its seed and a mutant by its index.
 */
public final class ModelMutator {
    /** @param mutation what was changed, and where, in words */
    public record Mutant(int index, String source, String mutation, byte[] bytes) {
    }

    private enum Kind { BIT_FLIPS, TRUNCATION, HEADER, SITE }

    private final List<String> names;
    private final List<byte[]> models;
    private final long seed;
    private final Map<Integer, Map<FlatBufferSites.Kind, List<FlatBufferSites.Site>>> sites = new HashMap<>();

    /** @param sources the good models by name, in the order that makes the run reproducible */
    public ModelMutator(Map<String, byte[]> sources, long seed) {
        if (sources.isEmpty()) {
            throw new IllegalArgumentException("no models to mutate");
        }
        this.names = new ArrayList<>(sources.keySet());
        this.models = new ArrayList<>(sources.values());
        this.seed = seed;
    }

    public Mutant mutant(int index) {
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + index);
        int source = random.nextInt(models.size());
        byte[] bytes = models.get(source).clone();
        String name = names.get(source);
        Kind kind = Kind.values()[random.nextInt(Kind.values().length)];
        if (kind == Kind.TRUNCATION) {
            // Near the end cuts into the buffers; anywhere else into the tables.
            int length = random.nextBoolean() ? bytes.length - 1 - random.nextInt(Math.min(bytes.length, 64))
                    : random.nextInt(bytes.length);
            return new Mutant(index, name, "truncated to " + length + " of " + bytes.length + " bytes",
                    Arrays.copyOf(bytes, length));
        }
        String mutation = switch (kind) {
            case BIT_FLIPS -> flipBits(bytes, random);
            case HEADER -> header(bytes, random);
            default -> site(bytes, sitesOf(source), random);
        };
        return new Mutant(index, name, mutation, bytes);
    }

    private Map<FlatBufferSites.Kind, List<FlatBufferSites.Site>> sitesOf(int source) {
        return sites.computeIfAbsent(source, s -> FlatBufferSites.of(models.get(s)).stream().collect(
                Collectors.groupingBy(FlatBufferSites.Site::kind, () -> new EnumMap<>(FlatBufferSites.Kind.class),
                        Collectors.toList())));
    }

    private static String flipBits(byte[] bytes, Random random) {
        int flips = 1 + random.nextInt(8);
        StringBuilder where = new StringBuilder(flips + " bit flip" + (flips == 1 ? "" : "s") + " at");
        for (int f = 0; f < flips; f++) {
            int at = random.nextInt(bytes.length);
            int bit = random.nextInt(8);
            bytes[at] ^= (byte) (1 << bit);
            where.append(String.format(" 0x%x.%d", at, bit));
        }
        return where.toString();
    }

    /** The root offset and the file identifier: the first eight bytes. */
    private static String header(byte[] bytes, Random random) {
        int at = random.nextInt(Math.min(8, bytes.length));
        byte value = (byte) random.nextInt(256);
        String what = String.format("header byte %d: 0x%02x -> 0x%02x", at, bytes[at], value);
        bytes[at] = value;
        return what;
    }

    /** A kind first, then a site of it: the one root offset is hit as often as the thousands of dimensions. */
    private static String site(byte[] bytes, Map<FlatBufferSites.Kind, List<FlatBufferSites.Site>> sites,
                               Random random) {
        if (sites.isEmpty()) {
            return flipBits(bytes, random);
        }
        List<List<FlatBufferSites.Site>> kinds = List.copyOf(sites.values());
        List<FlatBufferSites.Site> ofKind = kinds.get(random.nextInt(kinds.size()));
        FlatBufferSites.Site site = ofKind.get(random.nextInt(ofKind.size()));
        ByteBuffer bb = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        long old = site.width() == 2 ? Short.toUnsignedInt(bb.getShort(site.position())) : bb.getInt(site.position());
        long value = hostileValue(site, old, bytes.length, random);
        if (site.width() == 2) {
            bb.putShort(site.position(), (short) value);
        } else {
            bb.putInt(site.position(), (int) value);
        }
        return String.format("%s at 0x%x: %d -> %d", site.kind().name().toLowerCase().replace('_', ' '),
                site.position(), old, site.width() == 2 ? value & 0xFFFF : (int) value);
    }

    private static long hostileValue(FlatBufferSites.Site site, long old, int fileLength, Random random) {
        long[] values = switch (site.kind()) {
            case ROOT_OFFSET -> new long[]{0, -1, fileLength, fileLength - 4, old + 4, old - 4, Integer.MAX_VALUE};
            case VTABLE_ENTRY -> new long[]{0xFFFF, 0, old + 4, old - 4, old + 1, random.nextInt(0x10000)};
            case VECTOR_LENGTH -> new long[]{Integer.MAX_VALUE, -1, 0x40000000, old + 1, old * 1000, 0};
            case TENSOR_DIMENSION -> new long[]{Integer.MAX_VALUE, 1 << 30, 1 << 20, 46341, 65536, -1, -2, 0};
            case BUFFER_INDEX, OPCODE_INDEX, OPERATOR_TENSOR -> new long[]{site.count(), site.count() + 1L, -2, -1,
                    Integer.MAX_VALUE, Integer.MIN_VALUE, random.nextInt(Math.max(1, site.count()))};
        };
        return values[random.nextInt(values.length)];
    }
}
