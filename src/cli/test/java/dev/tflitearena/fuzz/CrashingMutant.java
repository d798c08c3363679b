package dev.tflitearena.fuzz;

import dev.tflitearena.models.SampleModels;

import java.util.Map;

/**
 * The mutant the crash tests crash TFLite with. Found by fuzz-models --seed 7 (mutant 509, when the samples
 * ended at dynamic_where): an operator input of int8_convnet set to -1 (optional) makes DEQUANTIZE's prepare
 * dereference a null tensor. A mutator over that one model draws the same mutant, whatever samples come after.
 */
public final class CrashingMutant {
    private static final long SEED = 7;
    private static final int INDEX = 509;

    private CrashingMutant() {
    }

    public static ModelMutator.Mutant of() {
        return new ModelMutator(Map.of("int8_convnet", SampleModels.int8ConvNet()), SEED).mutant(INDEX);
    }
}
