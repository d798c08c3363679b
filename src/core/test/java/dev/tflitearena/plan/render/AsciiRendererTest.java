package dev.tflitearena.plan.render;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.place.BufferSet;
import dev.tflitearena.plan.tflite.TflitePlanner;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsciiRendererTest {

    @Test
    void theSampleChainPlanExactly() {
        Graph graph = SampleGraphs.chain();
        String expected = """
            tflite plan
            
            subgraph 0 (main): 4 nodes, 6 rw tensors, 1 of them in place
            planner tflite: arena 4 KiB (4,072 B), lower bound 3.9 KiB (4,000 B), gap 1.8%; persistent arena 300 B for 1 tensor, not drawn
                 4 KiB +== arena top 4,072 B ===========+
                       |                CCCCCCCCCCCCCCCC|
               3.9 KiB :-- lower bound 4,000 B ---------:
                       |                CCCCCCCCCCCCCCCC|
                       |                CCCCCCCCCCCCCCCC|
                       |DDDDDDDD        CCCCCCCCCCCCCCCC|
                       |DDDDDDDD        CCCCCCCCCCCCCCCC|
                       |DDDDDDDD        CCCCCCCCCCCCCCCC|
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAA        |
                       |AAAAAAAAAAAAAAAAAAAAAAAAEEEEEEEE|
                       |AAAAAAAAAAAAAAAAAAAAAAAAEEEEEEEE|
                       |AAAAAAAAAAAAAAAAAAAAAAAAEEEEEEEE|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                       |BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB|
                     0 +--------------------------------+
                  node  0       1       2       3
                                            ^ peak
              A  2,000 B  nodes 0..2  t1
              B  1,000 B  nodes 0..3  t0
              C  1,000 B  nodes 2..3  t3
              D    512 B  node 0      t5
              E    500 B  node 3      t4
              ^  peak of the lower bound: node 2 (OP2), 4,000 B live in 3 buffers
              in-place aliases, drawn as their roots: 1
            """;
        assertEquals(expected, AsciiRenderer.render(PlanPicture.of(graph, new TflitePlanner().plan(graph)), 45));
    }

    @Test
    void moreStepsThanColumnsFitTheWidthAndAnArenaAtItsLowerBoundSaysSo() {
        List<BufferSet.Buffer> buffers = new ArrayList<>();
        long[] offsets = new long[300];
        for (int i = 0; i < offsets.length; i++) {
            buffers.add(new BufferSet.Buffer(i, 1000, i, i));
        }
        String text = AsciiRenderer.render(PlanPicture.of("wide", new BufferSet(buffers, 300, 1), offsets), 80);
        for (String line : text.split("\n")) {
            assertTrue(line.length() <= 80 || line.startsWith("arena "), line);
        }
        assertTrue(text.contains("+== arena top = lower bound 1,000 B ="), text);
        assertTrue(text.contains("  and 288 more buffers\n"), text);
        assertTrue(text.contains("      node  0   20  40   60"), text);
        assertTrue(text.contains("\n            ^ peak\n"), "the first step holds the peak, on a tie: " + text);
        assertTrue(text.contains("  ^  peak of the lower bound: step 0, 1,000 B live in 1 buffer\n"), text);
    }

    @Test
    void aPeakAtTheLastStepIsNamedLeftOfItsCaret() {
        BufferSet set = new BufferSet(List.of(new BufferSet.Buffer(0, 10, 0, 0), new BufferSet.Buffer(1, 30, 3, 3)),
                4, 1);
        String text = AsciiRenderer.render(PlanPicture.of("last", set, new long[] {0, 0}), 45);
        // Step 3's middle is column 40 of 45: "^ peak" would overflow the frame.
        assertTrue(text.contains("\n" + " ".repeat(35) + "peak ^\n"), text);
    }

    @Test
    void tooFewColumnsAreRefused() {
        Graph graph = SampleGraphs.chain();
        PlanPicture picture = PlanPicture.of(graph, new TflitePlanner().plan(graph));
        assertThrows(IllegalArgumentException.class, () -> AsciiRenderer.render(picture, 20));
    }
}
