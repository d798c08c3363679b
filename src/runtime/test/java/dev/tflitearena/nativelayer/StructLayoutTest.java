package dev.tflitearena.nativelayer;

import dev.tflitearena.bridge.presets.NativeRelease;
import dev.tflitearena.graph.TfliteRelease;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The layout check: the native layer's compiled layout against the presets' view of the loaded release. The
 * refusals are shown on a copy of the compiled layout with one entry changed, so that they hold on every release.
 */
class StructLayoutTest {

    @Test
    void theNativeLayerLoadsAndItsLayoutMatchesThePresets() {
        if (NativeRelease.loaded().sharing() == TfliteRelease.Sharing.RESHAPE_OPS) {
            // TFLite 2.12: its TfLiteRegistration has no inplace_operator, and is smaller by what follows.
            assertFalse(NativeLayer.available(), "the native layer is in use on TFLite " + NativeRelease.version());
            String reason = NativeLayer.unavailableReason();
            assertTrue(reason.contains("TfLiteRegistration") && reason.contains("TFLite " + NativeRelease.version()), reason);
            return;
        }
        assertTrue(NativeLayer.available(), NativeLayer::unavailableReason);
        StructLayout compiled = StructLayout.compiled();
        assertTrue(compiled.entries().containsKey("TfLiteTensor.bytes"));
        assertTrue(compiled.entries().containsKey("TfLiteTensor"));
        assertEquals(compiled, StructLayout.presets());
        assertDoesNotThrow(() -> compiled.check(StructLayout.presets(), "2.20.0"));
    }

    @Test
    void aWrongOffsetIsRefusedNamingTheField() {
        Map<String, Long> tampered = new HashMap<>(StructLayout.compiled().entries());
        tampered.put("TfLiteTensor.bytes", tampered.get("TfLiteTensor.bytes") + 8);
        StructLayout.Mismatch refusal = assertThrows(StructLayout.Mismatch.class,
                () -> StructLayout.compiled().check(new StructLayout(tampered), "2.20.0"));
        assertTrue(refusal.getMessage().contains("offsetof(TfLiteTensor.bytes)"), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("TFLite 2.20.0"), refusal.getMessage());
    }

    @Test
    void aWrongSizeIsRefusedNamingTheStruct() {
        Map<String, Long> tampered = new HashMap<>(StructLayout.compiled().entries());
        tampered.put("TfLiteTensor", 104L);
        StructLayout.Mismatch refusal = assertThrows(StructLayout.Mismatch.class,
                () -> StructLayout.compiled().check(new StructLayout(tampered), "2.20.0"));
        assertTrue(refusal.getMessage().contains("sizeof(TfLiteTensor)"), refusal.getMessage());
    }

    @Test
    void aFieldTheRuntimeLacksIsRefused() {
        // As on TFLite 2.12, whose TfLiteRegistration has no inplace_operator.
        Map<String, Long> tampered = new HashMap<>(StructLayout.compiled().entries());
        tampered.put("TfLiteRegistration.inplace_operator", -1L);
        StructLayout.Mismatch refusal = assertThrows(StructLayout.Mismatch.class,
                () -> StructLayout.compiled().check(new StructLayout(tampered), "2.12.0"));
        assertTrue(refusal.getMessage().contains("offsetof(TfLiteRegistration.inplace_operator)"), refusal.getMessage());
        assertTrue(refusal.getMessage().contains("does not have"), refusal.getMessage());
    }
}
