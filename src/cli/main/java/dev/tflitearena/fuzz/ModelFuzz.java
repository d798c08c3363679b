package dev.tflitearena.fuzz;

import dev.tflitearena.graph.tflite.InvalidModelException;
import dev.tflitearena.graph.tflite.TfliteFile;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import dev.tflitearena.isolation.NativeProbe;
import dev.tflitearena.models.SampleModels;
import dev.tflitearena.progress.Progress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Hostile models against every path that reads one: each mutant goes through the pure-Java reader
 * in-process ({@code inspect}), and the first ones also through every native step in a child JVM
 * ({@code plan}, {@code compare}, {@code run}; see {@link IsolatedRun}). A refusal with a message is a
 * correct answer; in-process, anything else is a failure of ours; in a child, a crash, a hang or exhausted
 * memory is a finding in TFLite, saved with the command that reproduces it.
 */
public final class ModelFuzz {
    /**
     * @param nativeMutants how many of the mutants, from the first, also run natively
     * @param timeBudget    start no native batch after this long; zero for no limit
     * @param out           where findings are saved, or null not to save them
     */
    public record Settings(int mutants, int nativeMutants, long seed, Duration timeBudget, Path out,
                           IsolatedRun.Limits limits) {
    }

    /** @param path "inspect" for the in-process reader, "native" for the child */
    public record Finding(ModelMutator.Mutant mutant, String path, Outcome outcome, String stage, String detail,
                          Path saved) {
        public String describe() {
            return "mutant " + mutant.index() + " of " + mutant.source() + " (" + mutant.mutation() + "): " + path
                    + (stage == null ? "" : " at " + stage) + " " + outcome.name().toLowerCase() + ": " + detail;
        }
    }

    public record Report(int mutants, int nativeMutants, Map<Outcome, Integer> inProcess,
                         Map<Outcome, Integer> isolated, List<Finding> findings, Duration slowestRead,
                         Duration elapsed, boolean budgetSpent) {
        /** Nothing went wrong in this JVM: the reader refused or read every mutant. */
        public boolean parentClean() {
            return findings.stream().noneMatch(f -> f.path().equals("inspect"));
        }
    }

    private static final int BATCH = 25;

    private ModelFuzz() {
    }

    /** The real models of {@code directory} by file name, then the sample models. */
    public static Map<String, byte[]> sources(Path directory) throws IOException {
        Map<String, byte[]> sources = new LinkedHashMap<>();
        if (Files.isDirectory(directory)) {
            try (Stream<Path> files = Files.list(directory)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".tflite")).sorted().toList()) {
                    sources.put(file.getFileName().toString(), Files.readAllBytes(file));
                }
            }
        }
        SampleModels.all().forEach((name, model) -> sources.put(name, model.get()));
        return sources;
    }

    /** Each mutant is an item of {@code progress}, first in this JVM, then in the children, a batch at a time. */
    public static Report run(Settings settings, Map<String, byte[]> sources, Progress progress) throws IOException {
        long start = System.nanoTime();
        ModelMutator mutator = new ModelMutator(sources, settings.seed());
        Map<Outcome, Integer> inProcess = new EnumMap<>(Outcome.class);
        Map<Outcome, Integer> isolated = new EnumMap<>(Outcome.class);
        List<Finding> findings = new ArrayList<>();
        Duration slowest = Duration.ZERO;
        for (int i = 0; i < settings.mutants(); i++) {
            progress.advance(i, settings.mutants(), "mutants read in this JVM, " + findings.size() + " findings");
            ModelMutator.Mutant mutant = mutator.mutant(i);
            long before = System.nanoTime();
            Finding finding = read(mutant);
            Duration took = Duration.ofNanos(System.nanoTime() - before);
            slowest = took.compareTo(slowest) > 0 ? took : slowest;
            inProcess.merge(finding == null ? Outcome.OK : finding.outcome(), 1, Integer::sum);
            if (finding != null && finding.outcome() != Outcome.REFUSED) {
                findings.add(save(finding, settings.out()));
            }
        }
        int nativeRun = 0;
        boolean budgetSpent = false;
        Path scratch = Files.createTempDirectory("fuzz-models");
        try {
            int nativeMutants = Math.min(settings.mutants(), settings.nativeMutants());
            while (nativeRun < nativeMutants) {
                if (!settings.timeBudget().isZero()
                        && Duration.ofNanos(System.nanoTime() - start).compareTo(settings.timeBudget()) >= 0) {
                    budgetSpent = true;
                    break;
                }
                progress.advance(nativeRun, nativeMutants, "mutants run natively in child JVMs, " + findings.size()
                        + " findings");
                int end = Math.min(nativeMutants, nativeRun + BATCH);
                List<ModelMutator.Mutant> batch = new ArrayList<>();
                List<Path> files = new ArrayList<>();
                for (int i = nativeRun; i < end; i++) {
                    ModelMutator.Mutant mutant = mutator.mutant(i);
                    batch.add(mutant);
                    files.add(Files.write(scratch.resolve("mutant-" + i + ".tflite"), mutant.bytes()));
                }
                List<IsolatedRun.Result> results = IsolatedRun.checkAll(files, settings.limits());
                for (int k = 0; k < results.size(); k++) {
                    IsolatedRun.Result r = results.get(k);
                    isolated.merge(r.outcome(), 1, Integer::sum);
                    if (r.outcome() != Outcome.OK && r.outcome() != Outcome.REFUSED) {
                        findings.add(save(new Finding(batch.get(k), "native", r.outcome(), r.stage(), r.detail(),
                                null), settings.out()));
                    }
                    Files.delete(files.get(k));
                }
                nativeRun = end;
            }
        } finally {
            Files.deleteIfExists(scratch);
        }
        return new Report(settings.mutants(), nativeRun, inProcess, isolated, findings, slowest,
                Duration.ofNanos(System.nanoTime() - start), budgetSpent);
    }

    /** The pure-Java reader and the static graph, in-process; null when the mutant reads. */
    static Finding read(ModelMutator.Mutant mutant) {
        String name = "mutant-" + mutant.index() + ".tflite";
        try {
            TfliteFile.read(mutant.bytes(), name).toGraph();
            return null;
        } catch (InvalidModelException e) {
            return new Finding(mutant, "inspect", Outcome.REFUSED, null, e.getMessage(), null);
        } catch (OutOfMemoryError e) {
            return new Finding(mutant, "inspect", Outcome.OUT_OF_MEMORY, null, e.toString(), null);
        } catch (RuntimeException | StackOverflowError e) {
            return new Finding(mutant, "inspect", Outcome.FAILED, null, e.toString(), null);
        }
    }

    /** Saves the mutant and a note with what it is and how to reproduce it. */
    private static Finding save(Finding finding, Path out) {
        if (out == null) {
            return finding;
        }
        try {
            Files.createDirectories(out);
            Path model = out.resolve("mutant-" + finding.mutant().index() + ".tflite");
            Files.write(model, finding.mutant().bytes());
            Files.writeString(out.resolve("mutant-" + finding.mutant().index() + ".txt"),
                    finding.describe() + "\nreproduce: " + reproduceCommand(finding.path(), model) + "\n");
            return new Finding(finding.mutant(), finding.path(), finding.outcome(), finding.stage(), finding.detail(),
                    model);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String reproduceCommand(String path, Path model) {
        return path.equals("inspect") ? "java -jar target/tflite-arena.jar inspect " + model
                : "java -cp target/tflite-arena.jar " + NativeProbe.class.getName() + " " + model;
    }
}
