package dev.tflitearena.fuzz;

import dev.tflitearena.TestModels;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModelMutatorTest {
    private static Map<String, byte[]> sources() throws IOException {
        return ModelFuzz.sources(TestModels.directory());
    }

    @Test
    void aMutantIsAFunctionOfTheSeedAndItsIndex() throws IOException {
        Map<String, byte[]> sources = sources();
        ModelMutator.Mutant a = new ModelMutator(sources, 5).mutant(17);
        ModelMutator.Mutant b = new ModelMutator(sources, 5).mutant(17);
        assertArrayEquals(a.bytes(), b.bytes());
        assertEquals(a.mutation(), b.mutation());
        assertFalse(Arrays.equals(a.bytes(), sources.get(a.source())), a.mutation());
    }

    @Test
    void everyKindOfMutationIsMade() throws IOException {
        ModelMutator mutator = new ModelMutator(sources(), 1);
        List<String> mutations = IntStream.range(0, 400).mapToObj(i -> mutator.mutant(i).mutation()).toList();
        for (String kind : List.of("bit flip", "truncated", "header byte", "root offset", "vtable entry",
                "vector length", "tensor dimension", "buffer index", "opcode index", "operator tensor")) {
            assertTrue(mutations.stream().anyMatch(m -> m.contains(kind)), kind);
        }
    }
}
