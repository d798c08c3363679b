package dev.tflitearena.bridge;

import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.Plan;
import org.bytedeco.javacpp.Pointer;
import org.bytedeco.tensorflowlite.BuiltinOpResolver;
import org.bytedeco.tensorflowlite.BuiltinOpResolverWithoutDefaultDelegates;
import org.bytedeco.tensorflowlite.FlatBufferModel;
import org.bytedeco.tensorflowlite.Interpreter;
import org.bytedeco.tensorflowlite.InterpreterBuilder;
import org.bytedeco.tensorflowlite.InterpreterOptions;
import org.bytedeco.tensorflowlite.OpResolver;
import org.bytedeco.tensorflowlite.Subgraph;
import org.bytedeco.tensorflowlite.TfLiteRegistration;

/**
 * A native TFLite interpreter over a {@link NativeModel}, with the op resolver and options of its
 * {@link InterpreterSettings}. It owns its native objects and frees them on {@link #close()}.
 */
public final class NativeInterpreter implements AutoCloseable {
    private static final int BUILTIN_OPERATOR_CUSTOM = 32;

    private final NativeModel model;
    private final InterpreterSettings settings;
    private final OpResolver resolver;
    private final InterpreterOptions options;
    private final Interpreter interpreter;
    private boolean closed;

    private NativeInterpreter(NativeModel model, InterpreterSettings settings, OpResolver resolver,
                              InterpreterOptions options, Interpreter interpreter) {
        this.model = model;
        this.settings = settings;
        this.resolver = resolver;
        this.options = options;
        this.interpreter = interpreter;
    }

    /** Builds the interpreter; refuses a model with a custom op the resolver lacks, naming it. */
    public static NativeInterpreter build(NativeModel model, InterpreterSettings settings) {
        FlatBufferModel flatBuffer = model.retain();
        OpResolver resolver = settings.xnnpack() ? new BuiltinOpResolver() : new BuiltinOpResolverWithoutDefaultDelegates();
        InterpreterOptions options = new InterpreterOptions();
        options.SetPreserveAllTensors(settings.preserveAllTensors());
        Interpreter interpreter = new Interpreter((Pointer) null);
        NativeInterpreter built = new NativeInterpreter(model, settings, resolver, options, interpreter);
        try (InterpreterBuilder builder = new InterpreterBuilder(flatBuffer, resolver, options)) {
            if (settings.threads() != InterpreterSettings.DEFAULT_THREADS) {
                TfLiteStatus.check(builder.SetNumThreads(settings.threads()), model.path() + ": SetNumThreads");
            }
            TfLiteStatus.check(builder.apply(interpreter), model.path() + ": InterpreterBuilder");
            if (interpreter.isNull()) {
                throw new NativeException(model.path() + ": InterpreterBuilder produced no interpreter");
            }
            built.refuseUnresolvedCustomOps();
            return built;
        } catch (RuntimeException e) {
            built.close();
            throw e;
        }
    }

    private void refuseUnresolvedCustomOps() {
        for (int s = 0; s < interpreter.subgraphs_size(); s++) {
            Subgraph subgraph = interpreter.subgraph(s);
            for (int n = 0; n < subgraph.nodes_size(); n++) {
                TfLiteRegistration registration = subgraph.node_and_registration(n).second();
                if (registration.builtin_code() != BUILTIN_OPERATOR_CUSTOM || registration.custom_name() == null) {
                    continue;
                }
                String op = registration.custom_name().getString();
                TfLiteRegistration found = resolver.FindOp(op, registration.version());
                if (found == null || found.isNull()) {
                    throw new NativeException(model.path() + ": subgraph " + s + ", node " + n
                            + " needs the custom op '" + op + "' (version " + registration.version()
                            + "), which " + settings.resolverName() + " does not provide");
                }
            }
        }
    }

    public NativeModel model() {
        return model;
    }

    public InterpreterSettings settings() {
        return settings;
    }

    /** Prepares every op and lets the native planner place the tensors. */
    public void allocateTensors() {
        TfLiteStatus.check(live().AllocateTensors(), model.path() + ": AllocateTensors");
    }

    /** The graph as the planners see it; call after {@link #allocateTensors()}, which adds temporaries. */
    public Graph snapshot() {
        return GraphSnapshot.of(live(), settings.preserveAllTensors());
    }

    /** Where the native planner put every arena tensor, read from the tensors' data pointers. */
    public Plan nativePlan() {
        return NativePlanReader.read(live());
    }

    Interpreter live() {
        if (closed) {
            throw new IllegalStateException(model.path() + ": interpreter is closed");
        }
        return interpreter;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        interpreter.close();
        resolver.close();
        options.close();
        model.release();
    }
}
