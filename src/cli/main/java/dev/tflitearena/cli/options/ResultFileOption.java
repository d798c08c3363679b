package dev.tflitearena.cli.options;

import dev.tflitearena.cli.output.WritablePath;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.Consumer;

/** {@code -o}/{@code --out FILE}: a file the command's result goes to instead of standard output. */
public final class ResultFileOption {
    @Option(names = {"-o", "--out", "--output"}, paramLabel = "FILE",
            description = "Write the result to FILE instead of standard output.")
    public Path file;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** Refuses a FILE that cannot be written, before the command does its work. */
    public void check() {
        if (file != null) {
            WritablePath.checkFile(file);
        }
    }

    /** Writes {@code result} to FILE, or prints it. */
    public void write(String result) {
        write(result, out -> { });
    }

    /** Writes {@code result} to FILE and then prints what {@code written} says of it, or prints the result. */
    public void write(String result, Consumer<PrintWriter> written) {
        PrintWriter out = spec.commandLine().getOut();
        if (file == null) {
            out.print(result);
        } else {
            WritablePath.write(file, result);
            written.accept(out);
        }
        out.flush();
    }
}
