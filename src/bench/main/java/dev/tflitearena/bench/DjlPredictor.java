package dev.tflitearena.bench;

import ai.djl.MalformedModelException;
import ai.djl.Model;
import ai.djl.engine.Engine;
import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.translate.NoopTranslator;
import ai.djl.translate.TranslateException;
import dev.tflitearena.graph.Tensor;
import org.tensorflow.lite.TensorFlowLite;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A model run the way a JVM user of DJL's TFLite engine runs it: a {@link Predictor} with a
 * {@link NoopTranslator}, fed the same input bytes as our interpreters, every output copied to the Java heap
 * as our sessions copy theirs. DJL's own TFLite (its JNI library, a whole TFLite of an older release) must come
 * from the classpath: this workplace, like CI, cannot reach DJL's download host, so DJL is put in offline mode
 * and fails at once, naming the library it lacks, instead of waiting on the network.
 */
final class DjlPredictor implements AutoCloseable {
    static final String ENGINE = "TFLite";
    private static final String OFFLINE_PROPERTY = "ai.djl.offline";

    private final Model model;
    private final Predictor<NDList, NDList> predictor;
    private final List<Shape> shapes;
    private final List<DataType> types;

    private DjlPredictor(Model model, List<Tensor> inputs) {
        this.model = model;
        this.predictor = model.newPredictor(new NoopTranslator());
        this.shapes = inputs.stream().map(t -> new Shape(Arrays.stream(t.shape()).asLongStream().toArray()))
                .toList();
        this.types = inputs.stream().map(DjlPredictor::dataType).toList();
    }

    /** Loads {@code file} with DJL; {@code inputs} are the model's inputs as our interpreter describes them. */
    static DjlPredictor load(Path file, List<Tensor> inputs) throws IOException, MalformedModelException {
        System.setProperty(OFFLINE_PROPERTY, "true");
        Model model = Model.newInstance(file.getFileName().toString(), ENGINE);
        try {
            model.load(file);
            return new DjlPredictor(model, inputs);
        } catch (IOException | MalformedModelException | RuntimeException e) {
            model.close();
            throw e;
        }
    }

    /**
     * DJL's version and that of the TFLite it loaded, as figures are labelled. The library's own, as DJL's
     * engine reports a fixed 2.4.1 whatever it loads.
     */
    static String version() {
        return "DJL " + Engine.getDjlVersion() + ", TFLite " + TensorFlowLite.runtimeVersion();
    }

    /**
     * One inference on {@code inputs} (direct, native byte order, one per model input; DJL reads them in
     * place), with every output's bytes copied out.
     */
    byte[][] run(ByteBuffer[] inputs) throws TranslateException {
        // Per call, as DJL's users do: the outputs attach to the inputs' manager, and closing it frees both.
        try (NDManager manager = model.getNDManager().newSubManager()) {
            NDList list = new NDList(inputs.length);
            for (int i = 0; i < inputs.length; i++) {
                list.add(manager.create(inputs[i].duplicate(), shapes.get(i), types.get(i)));
            }
            NDList outputs = predictor.predict(list);
            byte[][] copies = new byte[outputs.size()][];
            for (int i = 0; i < copies.length; i++) {
                NDArray output = outputs.get(i);
                ByteBuffer data = output.toByteBuffer();
                copies[i] = new byte[data.remaining()];
                data.get(copies[i]);
            }
            return copies;
        }
    }

    private static DataType dataType(Tensor tensor) {
        try {
            return DataType.valueOf(tensor.type());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("input " + tensor.index() + " '" + tensor.name() + "' is of type "
                    + tensor.type() + ", which DJL has no NDArray type for");
        }
    }

    @Override
    public void close() {
        predictor.close();
        model.close();
    }
}
