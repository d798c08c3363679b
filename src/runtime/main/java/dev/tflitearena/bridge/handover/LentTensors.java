package dev.tflitearena.bridge.handover;

import dev.tflitearena.bridge.presets.NativeException;
import dev.tflitearena.bridge.presets.NativeTensors;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteNode;

import java.util.ArrayList;
import java.util.List;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteBuiltinIf;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteBuiltinWhile;

/**
 * The inputs of called subgraphs that a control-flow kernel gives no memory of their own but points at its
 * caller's: a WHILE body's inputs share the WHILE node's outputs (its inputs where an output is left out), an
 * IF branch's inputs the IF node's inputs after the condition. The kernel marks them {@code kTfLiteCustom}
 * without registering a custom allocation (kernels/while.cc, if.cc), which TFLite accepts only while the
 * subgraph has no registered custom allocation at all: once it has one, {@code PrepareOpsAndTensors} checks
 * every custom subgraph input and node output against the registered ones (VerifyCustomAllocationForTensor
 * in core/subgraph.cc). So a handed-over called subgraph registers these too, each with its caller's
 * tensor's memory, which is where the kernel points it before each invoke anyway.
 */
final class LentTensors {
    /** Tensor {@code tensor} of the called subgraph is lent the memory of {@code callerTensor} of {@code callerSubgraph}. */
    record Lent(int tensor, int callerSubgraph, int callerTensor) {
    }

    private LentTensors() {
    }

    /** Per subgraph, the inputs the control flow calling it lends memory to; read from the nodes before any prepare. */
    static List<List<Lent>> read(Interpreter interpreter) {
        int count = (int) interpreter.subgraphs_size();
        List<List<Lent>> lent = new ArrayList<>();
        for (int s = 0; s < count; s++) {
            lent.add(new ArrayList<>());
        }
        for (int caller = 0; caller < count; caller++) {
            Subgraph subgraph = interpreter.subgraph(caller);
            for (int n : NativeTensors.ints(subgraph.execution_plan())) {
                var nodeAndRegistration = subgraph.node_and_registration(n);
                int code = nodeAndRegistration.second().builtin_code();
                if (code != kTfLiteBuiltinWhile && code != kTfLiteBuiltinIf) {
                    continue;
                }
                TfLiteNode node = nodeAndRegistration.first();
                int[] called = calledSubgraphs(node, count, caller, n);
                int[] inputs = NativeTensors.ints(node.inputs());
                int[] outputs = NativeTensors.ints(node.outputs());
                if (code == kTfLiteBuiltinWhile) {
                    int body = called[1];
                    int[] bodyInputs = NativeTensors.ints(interpreter.subgraph(body).inputs());
                    for (int i = 0; i < bodyInputs.length && i < inputs.length; i++) {
                        int lender = i < outputs.length && outputs[i] >= 0 ? outputs[i] : inputs[i];
                        add(lent.get(body), bodyInputs[i], caller, lender);
                    }
                } else {
                    for (int branch : called) {
                        int[] branchInputs = NativeTensors.ints(interpreter.subgraph(branch).inputs());
                        for (int i = 0; i < branchInputs.length && i + 1 < inputs.length; i++) {
                            add(lent.get(branch), branchInputs[i], caller, inputs[i + 1]);
                        }
                    }
                }
            }
        }
        return lent;
    }

    private static void add(List<Lent> lent, int tensor, int caller, int callerTensor) {
        if (tensor >= 0 && callerTensor >= 0) {
            lent.add(new Lent(tensor, caller, callerTensor));
        }
    }

    /**
     * The two subgraph indices of TfLiteWhileParams (cond, body) or TfLiteIfParams (then, else), both two ints
     * (core/c/builtin_op_data.h); the presets map neither struct.
     */
    private static int[] calledSubgraphs(TfLiteNode node, int count, int caller, int n) {
        Pointer data = node.builtin_data();
        if (data == null || data.isNull()) {
            throw new NativeException("subgraph " + caller + ", node " + n + ": a control-flow node without its parameters");
        }
        IntPointer params = new IntPointer(data);
        int[] called = {params.get(0), params.get(1)};
        for (int s : called) {
            if (s < 0 || s >= count) {
                throw new NativeException("subgraph " + caller + ", node " + n + " calls subgraph " + s
                        + ", the interpreter has " + count);
            }
        }
        return called;
    }
}
