package dev.tflitearena.bridge.builder;

import dev.tflitearena.bridge.presets.CustomOps;
import dev.tflitearena.bridge.presets.ReleaseApi;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.tensorflowlite.TfLiteContext;
import org.bytedeco.tensorflowlite.TfLiteIntArray;
import org.bytedeco.tensorflowlite.TfLiteNode;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteIntArrayCreate;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.TfLiteIntArrayFree;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteError;
import static org.bytedeco.tensorflowlite.global.tensorflowlite.kTfLiteOk;

/**
 * Kernels that compute nothing, for graphs built in code. Their prepare does to the planner what a real
 * kernel's prepare does: it declares the node's temporaries and changes allocation types (a kernel turns its
 * outputs or temporaries persistent there). TFLite 2.20 creates its planner after that first round of
 * prepares, so the planner sees the types as prepare left them.
 *
 * <p>The registration's {@code inplace_operator} is the node's in-place flags, so there is one registration per
 * flag value, made on first use and kept for good: TFLite copies a registration into each node but keeps
 * its name pointer. All of them share one prepare callback (see {@link CustomOps} for why), which finds what
 * to do by the address of its TfLiteContext (one per subgraph), then by the address of its node.
 */
final class NoOpKernels {
    private static final Map<Long, Map<Long, NodeSetup>> BY_CONTEXT = new ConcurrentHashMap<>();
    private static final Map<Integer, TfLiteRegistration> BY_INPLACE_FLAGS = new ConcurrentHashMap<>();
    private static final Prepare PREPARE = new Prepare();
    private static final BytePointer OP_NAME_NATIVE = new BytePointer("TfLiteArenaNoOp");

    /**
     * What one node's prepare does.
     *
     * @param temporaries   the node's temporaries, in order
     * @param allocations   tensor index and TfLiteAllocationType pairs, flattened: the types this prepare sets
     */
    record NodeSetup(int[] temporaries, int[] allocations) {
    }

    private NoOpKernels() {
    }

    static TfLiteRegistration registration(int inplaceFlags) {
        return BY_INPLACE_FLAGS.computeIfAbsent(inplaceFlags, NoOpKernels::newRegistration);
    }

    /** From now on, the prepare of the node at each address in the subgraph with this context does its setup. */
    static void install(long contextAddress, Map<Long, NodeSetup> byNodeAddress) {
        BY_CONTEXT.put(contextAddress, Map.copyOf(byNodeAddress));
    }

    static void uninstall(long contextAddress) {
        BY_CONTEXT.remove(contextAddress);
    }

    private static TfLiteRegistration newRegistration(int inplaceFlags) {
        TfLiteRegistration registration = CustomOps.registration(OP_NAME_NATIVE, PREPARE);
        ReleaseApi.setInplaceOperator(registration, inplaceFlags);
        return registration;
    }

    private static final class Prepare extends TfLiteRegistration.Prepare_TfLiteContext_TfLiteNode {
        @Override
        public int call(TfLiteContext context, TfLiteNode node) {
            // An exception must not cross the native frames of AllocateTensors: any failure is an error status.
            try {
                Map<Long, NodeSetup> nodes = BY_CONTEXT.get(context.address());
                NodeSetup setup = nodes == null ? null : nodes.get(node.address());
                if (setup == null) {
                    return kTfLiteError;
                }
                TfLiteIntArray temporaries = TfLiteIntArrayCreate(setup.temporaries().length);
                for (int i = 0; i < setup.temporaries().length; i++) {
                    temporaries.data(i, setup.temporaries()[i]);
                }
                TfLiteIntArrayFree(node.temporaries());
                node.temporaries(temporaries);
                for (int i = 0; i < setup.allocations().length; i += 2) {
                    context.tensors().getPointer(setup.allocations()[i]).allocation_type(setup.allocations()[i + 1]);
                }
                return kTfLiteOk;
            } catch (RuntimeException | Error e) {
                return kTfLiteError;
            }
        }
    }
}
