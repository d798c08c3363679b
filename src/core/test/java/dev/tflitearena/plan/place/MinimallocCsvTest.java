package dev.tflitearena.plan.place;

import dev.tflitearena.plan.InvalidPlanException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class MinimallocCsvTest {
    public static final Path INSTANCES = Path.of("tests/data/minimalloc");

    @Test
    void halfOpenIntervalsOverlapOnlyWhenTheyShareTime() {
        BufferSet set = MinimallocCsv.parse(List.of("id,lower,upper,size", "0,0,10,4", "1,10,20,4", "2,5,15,2"));
        assertFalse(set.buffers().get(0).overlapsInTime(set.buffers().get(1)), "[0,10) and [10,20) do not meet");
        assertTrue(set.buffers().get(0).overlapsInTime(set.buffers().get(2)));
        assertTrue(set.buffers().get(1).overlapsInTime(set.buffers().get(2)));
        assertEquals(6, set.lowerBound());
        assertEquals(1, set.alignment());
    }

    @Test
    void stepsAreRenumberedButEachBufferKeepsItsTimeLive() {
        BufferSet set = MinimallocCsv.parse(List.of("id,lower,upper,size", "0,0,1000,4", "1,1000,1001,4",
                "2,5,15,2"));
        assertEquals(4, set.steps(), "the times 0, 5, 15, 1000 and 1001 bound four steps");
        assertEquals(List.of(1000L, 1L, 10L), set.buffers().stream().map(set::duration).toList());
    }

    @Test
    void malformedLinesAreRefusedWithTheirLineNumber() {
        assertThrows(InvalidPlanException.class, () -> MinimallocCsv.parse(List.of("a,b,c")));
        assertEquals("line 2: expected 4 fields, got 3",
                assertThrows(InvalidPlanException.class, () -> MinimallocCsv.parse(List.of("id,lower,upper,size",
                        "0,1,2"))).getMessage());
        assertTrue(assertThrows(InvalidPlanException.class, () -> MinimallocCsv.parse(List.of("id,lower,upper,size",
                "0,5,5,1"))).getMessage().startsWith("line 2: needs 0 <= lower < upper"));
        assertTrue(assertThrows(InvalidPlanException.class, () -> MinimallocCsv.parse(List.of("id,lower,upper,size",
                "0,1,2,1", "0,3,4,1"))).getMessage().contains("repeated"));
    }

    @Test
    void anOfflineColumnGivesOffsetsForTflmGreedyAndIsRefusedWhereNothingPlacesThem() {
        List<String> lines = List.of("id,lower,upper,size,offline", "7,0,10,4,-1", "8,10,20,4,32");
        MinimallocCsv.Read read = MinimallocCsv.parseWithOffline(lines);
        assertEquals(Map.of(8, 32L), read.offlineOffsets());
        assertEquals(2, read.buffers().buffers().size());
        assertEquals("buffers [8] have offline offsets, which only tflm-greedy places",
                assertThrows(InvalidPlanException.class, () -> MinimallocCsv.parse(lines)).getMessage());
        assertEquals(0, MinimallocCsv.parse(List.of("id,lower,upper,size,offline", "0,0,1,4,-1")).peak().step());
        assertEquals("line 2: expected 5 fields, got 4", assertThrows(InvalidPlanException.class,
                () -> MinimallocCsv.parse(List.of("id,lower,upper,size,offline", "0,0,1,4"))).getMessage());
    }

    @Test
    void theSharedInstancesReadAndFitTheirCapacityByTheLowerBound() throws IOException {
        try (var files = Files.list(INSTANCES)) {
            List<Path> csvs = files.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
            assertEquals(6, csvs.size());
            for (Path csv : csvs) {
                BufferSet set = MinimallocCsv.read(csv);
                assertTrue(set.buffers().size() > 100, csv.toString());
                assertTrue(set.lowerBound() <= 1_048_576, csv + " lower bound " + set.lowerBound());
            }
        }
    }
}
