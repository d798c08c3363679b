package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Runs the command line and captures what it prints: in-process, or as {@code java -jar} does. */
final class Cli {
    record Result(int status, String out, String err) {
        JsonNode json() throws IOException {
            return new ObjectMapper().readTree(out);
        }
    }

    private Cli() {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Result(status, out.toString(), err.toString());
    }

    /**
     * Runs {@link Main#main} in a new JVM, with these environment variables added: what goes to the process's
     * standard error, native code's included, is what a user sees.
     */
    static Result runJvm(Map<String, String> environment, String... args) {
        return runJvm(List.of(), environment, args);
    }

    /** As {@link #runJvm(Map, String...)}, with these jars or directories on the classpath too. */
    static Result runJvm(List<Path> classpath, Map<String, String> environment, String... args) {
        StringBuilder path = new StringBuilder(System.getProperty("java.class.path"));
        classpath.forEach(p -> path.append(File.pathSeparator).append(p));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", path.toString(), Main.class.getName()));
        command.addAll(List.of(args));
        try {
            File out = File.createTempFile("cli-out", ".txt");
            File err = File.createTempFile("cli-err", ".txt");
            try {
                ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out).redirectError(err);
                builder.environment().putAll(environment);
                int status = builder.start().waitFor();
                return new Result(status, Files.readString(out.toPath(), Charset.defaultCharset()),
                        Files.readString(err.toPath(), Charset.defaultCharset()));
            } finally {
                out.delete();
                err.delete();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
