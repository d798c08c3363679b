package dev.tflitearena.cli.options;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.cli.output.Json;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** A command's result on standard output: text for people, or JSON with {@code --json}. */
public final class Output {
    @Option(names = "--json", description = "Print the result as JSON.")
    public boolean json;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    public void print(Supplier<ObjectNode> asJson, Consumer<PrintWriter> asText) {
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.print(asJson.get()));
        } else {
            asText.accept(out);
        }
        out.flush();
    }
}
