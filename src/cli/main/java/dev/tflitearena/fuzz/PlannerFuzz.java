package dev.tflitearena.fuzz;

import dev.tflitearena.fuzz.GraphCheck.Finding;
import dev.tflitearena.fuzz.GraphCheck.Kind;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.graph.GraphJson;
import dev.tflitearena.graph.Subgraph;
import dev.tflitearena.plan.Planner;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.tflite.TflitePlanner;
import dev.tflitearena.progress.Progress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * A differential-testing run: random graphs (see {@link RandomGraphs}) through {@link GraphCheck}, on several
 * threads; the first failure of each kind is shrunk (see {@link GraphShrinker}) and saved as graph JSON
 * with the command that replays it. Counts do not depend on the number of threads.
 */
public final class PlannerFuzz {
    /** Failures kept per run, each with its graph's seed; the others are only counted. */
    static final int MAX_KEPT = 1000;
    /** Failures shrunk and saved per run: the first of each kind and culprit. */
    static final int MAX_SAVED = 10;
    /** Candidates the shrinker tries per failure. */
    static final int MAX_SHRINK_TRIES = 4000;

    /**
     * @param reference   the planner compared with the native plan; its factory is called once per thread
     * @param validated   the planners whose plans are validated, made once per thread
     * @param timeBudget  no graph is started after this much time; zero for none
     * @param out         where shrunk failures are saved; null not to save them
     */
    public record Settings(int graphs, long seed, Supplier<Planner> reference, Supplier<List<Planner>> validated,
                           Duration timeBudget, int threads, Path out) {

        public static Settings of(int graphs, long seed, Duration plannerTimeLimit) {
            return new Settings(graphs, seed, TflitePlanner::new,
                    () -> Planners.all(plannerTimeLimit), Duration.ZERO, Runtime.getRuntime().availableProcessors(),
                    null);
        }

        public Settings withReference(Supplier<Planner> planner) {
            return new Settings(graphs, seed, planner, validated, timeBudget, threads, out);
        }

        public Settings withValidated(Supplier<List<Planner>> planners) {
            return new Settings(graphs, seed, reference, planners, timeBudget, threads, out);
        }

        public Settings withTimeBudget(Duration budget) {
            return new Settings(graphs, seed, reference, validated, budget, threads, out);
        }

        public Settings withThreads(int count) {
            return new Settings(graphs, seed, reference, validated, timeBudget, count, out);
        }

        public Settings withOut(Path directory) {
            return new Settings(graphs, seed, reference, validated, timeBudget, threads, directory);
        }
    }

    /** A failing graph of the run: which one, what failed, and its shrunk form (null when not shrunk). */
    public record Failure(int index, long graphSeed, Finding finding, Graph shrunk, Path saved) {
    }

    /**
     * @param graphs            graphs checked
     * @param mismatches        graphs whose native and reference plans differ
     * @param validatorFailures plans, of any planner, the validator refused
     * @param errors            graphs on which something threw
     * @param failures          the failures kept (see {@link #MAX_KEPT}), in graph order; the first of each
     *                          kind and culprit shrunk, up to {@link #MAX_SAVED}
     */
    public record Report(int graphs, long tensorsCompared, int mismatches, int validatorFailures, int errors,
                         Duration elapsed, boolean budgetSpent, List<Failure> failures) {

        public boolean clean() {
            return mismatches == 0 && validatorFailures == 0 && errors == 0;
        }
    }

    private PlannerFuzz() {
    }

    /** Runs the graphs, each an item of {@code progress}, then shrinks the failures to save. */
    public static Report run(Settings settings, Progress progress) throws InterruptedException {
        long start = System.nanoTime();
        AtomicInteger next = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        AtomicLong tensors = new AtomicLong();
        Map<Kind, AtomicInteger> counts = new EnumMap<>(Kind.class);
        for (Kind kind : Kind.values()) {
            counts.put(kind, new AtomicInteger());
        }
        ConcurrentLinkedQueue<Failure> kept = new ConcurrentLinkedQueue<>();
        advance(progress, 0, settings, counts);
        ExecutorService pool = Executors.newFixedThreadPool(settings.threads());
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < settings.threads(); w++) {
            workers.add(pool.submit(() -> {
                Planner reference = settings.reference().get();
                List<Planner> validated = settings.validated().get();
                for (int i = next.getAndIncrement(); i < settings.graphs() && !spent(settings, start);
                     i = next.getAndIncrement()) {
                    long graphSeed = RandomGraphs.graphSeed(settings.seed(), i);
                    GraphCheck check = GraphCheck.run(RandomGraphs.generate(graphSeed), reference, validated);
                    tensors.addAndGet(check.tensorsCompared());
                    // Mismatches and errors count graphs, validator failures count plans.
                    check.findings().stream().map(Finding::kind).filter(k -> k != Kind.VALIDATOR).distinct()
                            .forEach(k -> counts.get(k).incrementAndGet());
                    for (Finding f : check.findings()) {
                        if (f.kind() == Kind.VALIDATOR) {
                            counts.get(Kind.VALIDATOR).incrementAndGet();
                        }
                        if (kept.size() < MAX_KEPT) {
                            kept.add(new Failure(i, graphSeed, f, null, null));
                        }
                    }
                    advance(progress, done.incrementAndGet(), settings, counts);
                }
            }));
        }
        pool.shutdown();
        pool.awaitTermination(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
        for (Future<?> worker : workers) {
            try {
                worker.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("a fuzzing thread failed: " + e.getCause(), e.getCause());
            }
        }
        boolean budgetSpent = spent(settings, start);
        List<Failure> failures = new ArrayList<>(kept);
        failures.sort(Comparator.comparingInt(Failure::index));
        Set<String> shrunkKinds = new HashSet<>();
        for (int i = 0; i < failures.size() && shrunkKinds.size() < MAX_SAVED; i++) {
            Finding f = failures.get(i).finding();
            if (shrunkKinds.add(f.kind() + " " + f.who())) {
                progress.step("shrinking graph " + failures.get(i).index() + " (" + f.kind().name().toLowerCase()
                        + ", " + f.who() + ")");
                failures.set(i, shrunk(failures.get(i), settings));
            }
        }
        return new Report(done.get(), tensors.get(), counts.get(Kind.MISMATCH).get(),
                counts.get(Kind.VALIDATOR).get(), counts.get(Kind.ERROR).get(),
                Duration.ofNanos(System.nanoTime() - start), budgetSpent, failures);
    }

    private static void advance(Progress progress, int done, Settings settings, Map<Kind, AtomicInteger> counts) {
        progress.advance(done, settings.graphs(), String.format(
                "graphs checked: %d mismatches, %d validator failures, %d errors", counts.get(Kind.MISMATCH).get(),
                counts.get(Kind.VALIDATOR).get(), counts.get(Kind.ERROR).get()));
    }

    /** One graph, a saved failure for instance, through the same check as a run's graphs. */
    public static GraphCheck replay(Graph graph, Duration plannerTimeLimit) {
        return GraphCheck.run(graph, new TflitePlanner(), Planners.all(plannerTimeLimit));
    }

    private static boolean spent(Settings settings, long start) {
        return !settings.timeBudget().isZero()
                && System.nanoTime() - start >= settings.timeBudget().toNanos();
    }

    private static Failure shrunk(Failure failure, Settings settings) {
        Planner reference = settings.reference().get();
        List<Planner> validated = settings.validated().get();
        Graph graph = RandomGraphs.generate(failure.graphSeed());
        Finding finding = failure.finding();
        Predicate<Graph> fails = finding.kind() == Kind.MISMATCH ? sameMismatch(graph, reference)
                : g -> stillFails(g, finding, reference, validated);
        Graph minimal = GraphShrinker.shrink(graph, fails, MAX_SHRINK_TRIES);
        Path saved = settings.out() == null ? null : save(settings, failure, graph, minimal);
        return new Failure(failure.index(), failure.graphSeed(), finding, minimal, saved);
    }

    /**
     * A mismatch in at least one of the tensors that mismatched at first, known by name since shrinking
     * renumbers tensors but keeps their names, so that shrinking does not drift to another bug; any mismatch
     * when at first only the arena sizes differed.
     */
    private static Predicate<Graph> sameMismatch(Graph original, Planner reference) {
        Set<String> culprits = GraphCheck.run(original, reference, List.of()).mismatchedTensors(original);
        return g -> {
            GraphCheck check = GraphCheck.run(g, reference, List.of());
            return check.comparison() != null && !check.comparison().identical()
                    && (culprits.isEmpty() || !Collections.disjoint(culprits, check.mismatchedTensors(g)));
        };
    }

    /** Only what the failure needs runs: the native side for a native error, else the planner alone. */
    private static boolean stillFails(Graph g, Finding original, Planner reference, List<Planner> validated) {
        if (original.who().equals("native")) {
            return GraphCheck.run(g, reference, List.of()).findings().stream().anyMatch(original::sameAs);
        }
        Planner planner = validated.stream().filter(p -> p.name().equals(original.who())).findFirst()
                .orElse(reference);
        Finding f = GraphCheck.validate(g, planner);
        return f != null && original.sameAs(f);
    }

    private static Path save(Settings settings, Failure failure, Graph original, Graph minimal) {
        Finding f = failure.finding();
        String name = String.format("%s-%s-seed%d-graph%d", f.kind().name().toLowerCase(), f.who(), settings.seed(),
                failure.index());
        Path json = settings.out().resolve(name + ".json");
        try {
            Files.createDirectories(settings.out());
            GraphJson.write(minimal, json);
            Files.writeString(settings.out().resolve(name + ".txt"), String.format(
                    "%s%n%ngraph %d of the run with --seed %d (graph seed %d), shrunk from %s to %s%n%nreplay: %s%n",
                    f.describe(), failure.index(), settings.seed(), failure.graphSeed(), size(original), size(minimal),
                    replayCommand(json)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return json;
    }

    /** The command line that checks a saved graph again. */
    public static String replayCommand(Path json) {
        return "java -jar target/tflite-arena.jar fuzz-planner --replay " + json;
    }

    /** Subgraphs, nodes and tensors, for saying how much shrinking took away. */
    public static String size(Graph graph) {
        int nodes = graph.subgraphs().stream().mapToInt(s -> s.nodes().size()).sum();
        int tensors = graph.subgraphs().stream().map(Subgraph::tensors).mapToInt(List::size).sum();
        return graph.subgraphs().size() + " subgraph" + (graph.subgraphs().size() == 1 ? "" : "s") + ", " + nodes
                + " node" + (nodes == 1 ? "" : "s") + ", " + tensors + " tensor" + (tensors == 1 ? "" : "s");
    }
}
