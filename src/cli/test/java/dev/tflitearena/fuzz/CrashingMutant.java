package dev.tflitearena.fuzz;

import dev.tflitearena.models.SampleModels;

import java.util.Map;

/**
 * A model TFLite's verifier accepts and whose DEQUANTIZE prepare crashes the process (SIGSEGV): int8_convnet
 * with an operator's tensor index set to -1, found by {@code fuzz-models --seed 7} as mutant 509. It is made
 * from int8_convnet alone, so that models added to the fuzzer's sources leave it the same.
 */
public final class CrashingMutant {
    private CrashingMutant() {
    }

    public static ModelMutator.Mutant of() {
        return new ModelMutator(Map.of("int8_convnet", SampleModels.int8ConvNet()), 7).mutant(509);
    }
}
