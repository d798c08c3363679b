package dev.tflitearena.fuzz;

import dev.tflitearena.fuzz.BakedPlanTampering.Expect;
import dev.tflitearena.fuzz.BakedPlanTampering.Tampered;
import dev.tflitearena.isolation.IsolatedRun;
import dev.tflitearena.isolation.IsolatedRun.Outcome;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.progress.Progress;
import dev.tflitearena.session.PlanBaking;
import dev.tflitearena.session.SessionOptions;

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
import java.util.function.Consumer;

/**
 * A seeded campaign of tampered baked plans ({@link BakedPlanTampering}): each model baked with TFLite's rules,
 * its entry tampered with field by field, and every tampered model put through sessions in child JVMs
 * ({@link BakedPlanProbe}), where a crash kills only the child and is counted. With a probe of the command line,
 * each file also goes through it there. Files stay in {@code out}, a folder per model with its original and
 * {@value #EDITS}: a finding is reproduced from its file.
 */
public final class BakedPlanFuzz {
    /** The original model, in the folder of its tampered copies, each named INDEX-EXPECT.tflite. */
    public static final String ORIGINAL = "original.tflite";
    /** Beside them, what each file's edit is and what it is expected to get, tab-separated. */
    public static final String EDITS = "edits.tsv";
    private static final SessionOptions OPTIONS = SessionOptions.DEFAULT.withPlanner("tflite");
    /** The models a plan is copied onto, besides its own. */
    private static final int OTHERS = 2;
    private static final int BATCH = 40;

    /**
     * @param rawPerModel  random byte edits of each model's entry, beside one file per field edit
     * @param commandProbe a child main class that puts each file through the command line, or null
     */
    public record Settings(int rawPerModel, long seed, Path out, IsolatedRun.Limits limits, Class<?> commandProbe) {
    }

    /** @param path "sessions", or the command line's probe */
    public record Finding(Path file, String edit, Expect expect, String path, Outcome outcome, String stage,
                          String detail) {
        public String describe() {
            return file + " (" + edit + ", expected " + expect.name().toLowerCase() + "): " + path
                    + (stage == null ? "" : " at " + stage) + " " + outcome.name().toLowerCase() + ": " + detail;
        }
    }

    /**
     * What the campaign found; {@code deaths} are JVM deaths (crashes, not time-outs or memory).
     *
     * @param skipped the models not baked, and why
     */
    public record Report(int files, Map<Expect, Integer> expected, Map<String, String> skipped,
                         Map<Outcome, Integer> sessions, Map<Outcome, Integer> commandLine, int deaths,
                         int ifValidThrows, int requiredAcceptances, int outputsDiffer, List<Finding> findings,
                         Duration elapsed) {
        public boolean clean() {
            return findings.isEmpty();
        }
    }

    /** A tampered file's edit, and what it must get. */
    private record Written(String edit, Expect expect) {
    }

    private BakedPlanFuzz() {
    }

    /** Bakes each model, tampers with it, and runs every tampered copy; each file is an item of {@code progress}. */
    public static Report run(Map<String, byte[]> models, Settings settings, Progress progress) throws IOException {
        long start = System.nanoTime();
        Map<String, PlanBaking.Baked> baked = new LinkedHashMap<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> m : models.entrySet()) {
            progress.step("baking " + m.getKey());
            try {
                baked.put(m.getKey(), PlanBaking.forTflite(m.getValue(), m.getKey(), OPTIONS,
                        Planners.byName("tflite", Duration.ZERO), false));
            } catch (RuntimeException e) {
                skipped.put(m.getKey(), e.getMessage());
            }
        }
        List<Path> files = new ArrayList<>();
        // What each file is; its bytes are on disk only: the copies of a large model take gigabytes.
        Map<Path, Written> tampered = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(baked.keySet());
        for (int m = 0; m < names.size(); m++) {
            String name = names.get(m);
            PlanBaking.Baked b = baked.get(name);
            Path dir = Files.createDirectories(settings.out().resolve(stem(name)));
            Files.write(dir.resolve(ORIGINAL), models.get(name));
            StringBuilder edits = new StringBuilder("file\texpected\tedit\n");
            Consumer<Tampered> write = t -> {
                Path file = dir.resolve(tampered.size() + "-" + t.expect().name() + ".tflite");
                try {
                    Files.write(file, t.model());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                files.add(file);
                tampered.put(file, new Written(t.edit(), t.expect()));
                edits.append(file.getFileName()).append('\t').append(t.expect().name().toLowerCase()).append('\t')
                        .append(t.edit()).append('\n');
            };
            BakedPlanTampering.of(b.model(), b.plan(), b.graph(), settings.rawPerModel(), settings.seed() * 31 + m,
                    write);
            // Each model also gets the entries of the models after it: files compare with their own original.
            for (int k = 1; k <= OTHERS && k < names.size(); k++) {
                String from = names.get((m + k) % names.size());
                write.accept(BakedPlanTampering.onOtherModel(models.get(name), baked.get(from).plan(), from));
            }
            Files.writeString(dir.resolve(EDITS), edits);
        }
        Map<Expect, Integer> expected = new EnumMap<>(Expect.class);
        tampered.values().forEach(t -> expected.merge(t.expect(), 1, Integer::sum));
        List<Finding> findings = new ArrayList<>();
        Map<Outcome, Integer> sessions = runAll(BakedPlanProbe.class, "sessions", files, tampered, settings, progress,
                findings);
        Map<Outcome, Integer> commandLine = settings.commandProbe() == null ? Map.of()
                : runAll(settings.commandProbe(), "command line", files, tampered, settings, progress, findings);
        int deaths = (int) findings.stream().filter(f -> f.outcome() == Outcome.CRASHED).count();
        return new Report(files.size(), expected, skipped, sessions, commandLine, deaths,
                count(findings, BakedPlanProbe.IF_VALID_THREW), count(findings, BakedPlanProbe.REQUIRED_ACCEPTED),
                count(findings, BakedPlanProbe.OUTPUTS_DIFFER), findings, Duration.ofNanos(System.nanoTime() - start));
    }

    private static Map<Outcome, Integer> runAll(Class<?> probe, String path, List<Path> files,
                                                Map<Path, Written> tampered, Settings settings, Progress progress,
                                                List<Finding> findings) {
        Map<Outcome, Integer> outcomes = new EnumMap<>(Outcome.class);
        for (int from = 0; from < files.size(); from += BATCH) {
            progress.advance(from, files.size(), "tampered models through the " + path + " in child JVMs, "
                    + findings.size() + " findings");
            List<Path> batch = files.subList(from, Math.min(files.size(), from + BATCH));
            List<IsolatedRun.Result> results = IsolatedRun.runAll(probe, List.of(),
                    batch.stream().map(f -> f.toAbsolutePath().toString()).toList(), settings.limits());
            for (int k = 0; k < results.size(); k++) {
                IsolatedRun.Result r = results.get(k);
                outcomes.merge(r.outcome(), 1, Integer::sum);
                if (r.outcome() != Outcome.OK) {
                    Written t = tampered.get(batch.get(k));
                    findings.add(new Finding(batch.get(k), t.edit(), t.expect(), path, r.outcome(), r.stage(),
                            r.detail()));
                }
            }
        }
        progress.advance(files.size(), files.size(), "tampered models through the " + path);
        return outcomes;
    }

    private static int count(List<Finding> findings, String kind) {
        return (int) findings.stream().filter(f -> f.detail() != null && f.detail().contains(kind + ": ")).count();
    }

    /** What a tampered file, named INDEX-EXPECT.tflite, is expected to get. */
    public static Expect expectOf(Path file) {
        String name = file.getFileName().toString();
        return Expect.valueOf(name.substring(name.lastIndexOf('-') + 1, name.length() - ".tflite".length()));
    }

    private static String stem(String name) {
        return name.endsWith(".tflite") ? name.substring(0, name.length() - ".tflite".length()) : name;
    }
}
