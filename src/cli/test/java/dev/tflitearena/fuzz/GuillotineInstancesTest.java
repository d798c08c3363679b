package dev.tflitearena.fuzz;

import dev.tflitearena.plan.place.BufferSet;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GuillotineInstancesTest {
    @Test
    void eachInstanceIsCutFromTheFullSquareAndItsPiecesPackIt() {
        for (int i = 0; i < 10; i++) {
            GuillotineInstances.Instance instance = GuillotineInstances.of(3, i, false);
            BufferSet buffers = instance.buffers();
            int n = buffers.buffers().size();
            assertTrue(n >= GuillotineInstances.MIN_BUFFERS && n <= GuillotineInstances.MAX_BUFFERS, n + " buffers");
            assertEquals(GuillotineInstances.CAPACITY, instance.capacity());
            assertEquals(GuillotineInstances.CAPACITY, buffers.lowerBound(), "every step is full");
            buffers.validate(instance.packing());
            assertEquals(GuillotineInstances.CAPACITY, buffers.arenaBytes(instance.packing()));
            long area = buffers.buffers().stream().mapToLong(b -> b.size() * buffers.duration(b)).sum();
            assertEquals(GuillotineInstances.CAPACITY * GuillotineInstances.CAPACITY, area, "the pieces tile it");
        }
    }

    @Test
    void anInstanceIsAFunctionOfTheSeedAndItsIndex() {
        assertEquals(GuillotineInstances.of(3, 4, false).csv(), GuillotineInstances.of(3, 4, false).csv());
        assertArrayEquals(GuillotineInstances.of(3, 4, false).packing(), GuillotineInstances.of(3, 4, false).packing());
        assertNotEquals(GuillotineInstances.of(3, 4, false).csv(), GuillotineInstances.of(3, 5, false).csv());
        assertNotEquals(GuillotineInstances.of(3, 4, false).csv(), GuillotineInstances.of(4, 4, false).csv());
    }

    @Test
    void aHarderOneLosesTheBuffersAtOneHeightAndAsksForItsLowerBound() {
        for (int i = 0; i < 10; i++) {
            GuillotineInstances.Instance full = GuillotineInstances.of(3, i, false);
            GuillotineInstances.Instance harder = GuillotineInstances.of(3, i, true);
            BufferSet buffers = harder.buffers();
            assertTrue(buffers.buffers().size() < full.buffers().buffers().size());
            assertEquals(buffers.lowerBound(), harder.capacity());
            assertTrue(harder.capacity() < GuillotineInstances.CAPACITY, harder.capacity() + " bytes");
            assertNull(harder.packing(), "not known to fit");
        }
    }
}
