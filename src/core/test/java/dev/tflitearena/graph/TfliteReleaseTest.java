package dev.tflitearena.graph;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TfliteReleaseTest {
    @Test
    void aReleaseIsNamedByMajorAndMinorInAnyOfTheVersionsThatCarryIt() {
        assertEquals(TfliteRelease.V2_12, TfliteRelease.of("2.12"));
        assertEquals(TfliteRelease.V2_12, TfliteRelease.of("2.12.0"));
        assertEquals(TfliteRelease.V2_15, TfliteRelease.of("2.15.0-1.5.10"));
        assertEquals(TfliteRelease.V2_20, TfliteRelease.NEWEST);
    }

    @Test
    void aReleaseWithoutCheckedRulesIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TfliteRelease.of("2.16.1"));
        assertTrue(e.getMessage().contains("2.16.1"), e.getMessage());
        assertTrue(e.getMessage().contains("2.12, 2.15, 2.18, 2.19, 2.20"), e.getMessage());
    }

    @Test
    void theArenaBufferIsPaddedUpTo215() {
        assertEquals(128, TfliteRelease.V2_12.arenaBufferPadding());
        assertEquals(128, TfliteRelease.V2_15.arenaBufferPadding());
        assertEquals(0, TfliteRelease.V2_18.arenaBufferPadding());
        assertEquals(0, TfliteRelease.V2_20.arenaBufferPadding());
    }

    @Test
    void graphJsonKeepsTheReleaseAndDefaultsToTheNewest() {
        GraphBuilder g = new GraphBuilder().release(TfliteRelease.V2_12);
        int in = g.tensor(400), out = g.tensor(400);
        Graph graph = g.node(new int[]{in}, new int[]{out}).inputs(in).outputs(out).build();
        String json = GraphJson.toJson(graph);
        assertTrue(json.contains("\"tflite_release\" : \"2.12\""), json);
        assertEquals(TfliteRelease.V2_12, GraphJson.parse(json).options().release());
        String withoutRelease = json.replace(",\n    \"tflite_release\" : \"2.12\"", "");
        assertEquals(TfliteRelease.NEWEST, GraphJson.parse(withoutRelease).options().release(), withoutRelease);
    }
}
