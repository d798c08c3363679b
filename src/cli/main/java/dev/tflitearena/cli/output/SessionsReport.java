package dev.tflitearena.cli.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.bridge.sharing.PersistentTensors;
import dev.tflitearena.memory.RestSplit;
import dev.tflitearena.memory.SessionScaling;
import dev.tflitearena.session.SessionOptions;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The {@code memory --sessions} result, as text and as JSON. */
public final class SessionsReport {
    static final String REST_SPLIT_MEASURED_AS = "the native heap after each step of building one more "
            + "interpreter beside one that has run, on TFLite's plan, in the sessions' settings and sharing: "
            + "build (InterpreterBuilder), allocate (AllocateTensors less TFLite's arenas and the warm-up copy of the "
            + "shared tensors: kernels' Init and Prepare, the planner's bookkeeping, XNNPACK's runtime), the first "
            + "invoke (what kernels and TFLite's CPU back end, ruy, gemmlowp and Eigen's thread pool, malloc on first "
            + "use), sharing (the interpreter's own copies of sparse indices freed) and a later invoke; census: "
            + "malloc_usable_size of each block the interpreter holds for tensors and nodes, after all steps";
    static final String WORKING_MEASURED_AS = "the session's rw arena (what it reports), plus with XNNPACK what "
            + "AllocateTensors, which applies the delegate, mallocs per interpreter beyond what it mallocs without "
            + "XNNPACK, both measured on one more interpreter step by step (rest_split): the delegate's runtime and "
            + "workspace, and its packed weights when the sessions share nothing (sharing sessions share a weights cache)";

    private final Path model;
    private final List<SessionScaling.Report> reports;

    public SessionsReport(Path model, List<SessionScaling.Report> reports) {
        this.model = model;
        this.reports = reports;
    }

    public ObjectNode toJson() {
        ObjectNode root = Json.object();
        root.put("model", model.toString());
        ArrayNode runs = root.putArray("runs");
        for (SessionScaling.Report report : reports) {
            SessionScaling.Result r = report.measured();
            ObjectNode run = runs.addObject();
            options(run, r.options());
            run.put("rw_arena_bytes", r.rwArenaBytes());
            run.put("persistent_arena_bytes", r.persistentArenaBytes());
            run.put("shared_bytes", r.sharedBytes());
            run.put("working_bytes", report.workingBytes());
            run.put("working_bytes_measured_as", WORKING_MEASURED_AS);
            run.put("per_extra_session_bytes", r.perExtraSessionBytes());
            ObjectNode split = run.putObject("per_extra_session_split");
            split.put("rw_arena_bytes", r.rwArenaBytes());
            split.put("persistent_arena_bytes", r.persistentArenaBytes());
            split.put("xnnpack_bytes", report.xnnpackBytes());
            split.put("rest_bytes", report.restBytes());
            persistentTensors(run, r.persistentTensors());
            if (r.restSplit() != null) {
                restSplit(run.putObject("rest_split"), r.restSplit());
            } else {
                run.putNull("rest_split");
            }
            run.put("one_session_native_heap_bytes", r.oneSessionBytes());
            run.put("goal_bytes", report.goalBytes());
            if (report.goalJudged()) {
                run.put("within_goal", report.withinGoal());
            } else {
                run.putNull("within_goal");
                run.put("goal_not_judged_because", report.notJudgedBecause());
            }
            points(run.putArray("sessions"), r);
            if (report.withoutXnnpack() != null) {
                ObjectNode without = run.putObject("without_xnnpack");
                without.put("per_extra_session_bytes", report.withoutXnnpack().perExtraSessionBytes());
                without.put("rest_bytes", report.withoutXnnpack().restBytes());
                points(without.putArray("sessions"), report.withoutXnnpack());
            }
        }
        return root;
    }

    private static void persistentTensors(ObjectNode run, List<PersistentTensors.Owned> owned) {
        ObjectNode byKind = run.putObject("persistent_bytes_by_kind");
        for (PersistentTensors.Kind kind : PersistentTensors.Kind.values()) {
            byKind.put(kind.name().toLowerCase(Locale.ROOT), bytes(owned, kind));
        }
        ArrayNode tensors = run.putArray("persistent_tensors");
        for (PersistentTensors.Owned o : owned) {
            ObjectNode t = tensors.addObject();
            t.put("subgraph", o.subgraph());
            t.put("tensor", o.tensor());
            t.put("name", o.name());
            t.put("bytes", o.bytes());
            t.put("kind", o.kind().name().toLowerCase(Locale.ROOT));
            t.put("why", o.why());
        }
    }

    private static long bytes(List<PersistentTensors.Owned> owned, PersistentTensors.Kind kind) {
        return owned.stream().filter(o -> o.kind() == kind).mapToLong(PersistentTensors.Owned::bytes).sum();
    }

    private static void restSplit(ObjectNode split, RestSplit r) {
        split.put("measured_as", REST_SPLIT_MEASURED_AS);
        split.put("build_bytes", r.buildBytes());
        split.put("allocate_bytes", r.allocateBytes());
        split.put("first_invoke_bytes", r.firstInvokeBytes());
        split.put("sharing_bytes", r.sharingBytes());
        split.put("later_invoke_bytes", r.laterInvokeBytes());
        split.put("rest_bytes", r.restBytes());
        split.put("arena_bytes", r.arenaBytes());
        ObjectNode census = split.putObject("census");
        r.census().forEach(census::put);
        split.put("census_bytes", r.censusBytes());
    }

    private static void options(ObjectNode run, SessionOptions options) {
        run.put("planner", options.planner());
        run.put("xnnpack", options.xnnpack());
        if (options.threads() == -1) {
            run.putNull("threads");
        } else {
            run.put("threads", options.threads());
        }
        run.put("share", options.shareConstants());
        run.put("release_inputs", options.releaseInputs());
    }

    private static void points(ArrayNode sessions, SessionScaling.Result r) {
        for (SessionScaling.Point p : r.points()) {
            ObjectNode point = sessions.addObject();
            point.put("count", p.count());
            point.put("native_heap_bytes", p.nativeHeapBytes());
            point.put("rss_bytes", p.residentBytes());
        }
    }

    private static void printPersistent(PrintWriter out, List<PersistentTensors.Owned> owned) {
        if (owned.isEmpty()) {
            out.printf("persistent tensors a session owns: none%n");
            return;
        }
        out.printf("persistent tensors a session owns: %s%n", Arrays.stream(PersistentTensors.Kind.values())
                .filter(k -> bytes(owned, k) > 0)
                .map(k -> k.name().toLowerCase(Locale.ROOT) + " " + bytes(owned, k) + " bytes ("
                        + owned.stream().filter(o -> o.kind() == k).count() + ")")
                .collect(Collectors.joining(", ")));
        owned.stream().filter(o -> o.kind() != PersistentTensors.Kind.STATE).limit(10).forEach(o -> out.printf(
                "  %s: subgraph %d tensor %d %s, %d bytes: %s%n", o.kind().name().toLowerCase(Locale.ROOT),
                o.subgraph(), o.tensor(), o.name(), o.bytes(), o.why()));
    }

    public void printText(PrintWriter out) {
        for (SessionScaling.Report report : reports) {
            SessionScaling.Result r = report.measured();
            SessionOptions o = r.options();
            out.printf("%s, planner %s, %s, threads %s, %s%n", model, o.planner(), o.xnnpack() ? "XNNPACK" : "no XNNPACK",
                    o.threads() == -1 ? "TFLite's default" : o.threads(),
                    o.shareConstants() ? "sharing what derives from constants (" + r.sharedBytes() + " bytes shared)"
                            : "sharing nothing");
            TextTable table = new TextTable("sessions", "native heap", "RSS");
            r.points().forEach(p -> table.add(p.count(), p.nativeHeapBytes(), p.residentBytes()));
            table.print(out);
            out.printf("native heap: uordblks + hblkhd less the JVM's own mallocs, RSS: VmRSS; both since before loading%n");
            out.printf("per extra session: %d bytes = rw arena %d + persistent arena %d + XNNPACK %d + rest %d%n",
                    r.perExtraSessionBytes(), r.rwArenaBytes(), r.persistentArenaBytes(), report.xnnpackBytes(),
                    report.restBytes());
            printPersistent(out, r.persistentTensors());
            RestSplit split = r.restSplit();
            if (split != null) {
                out.printf("rest, one more interpreter step by step: build %d + allocate %d (arenas %d and the warm-up copy "
                                + "left out) + first invoke %d + sharing %d + later invoke %d = %d bytes; of it, tensors and "
                                + "nodes %d (%s)%n",
                        split.buildBytes(), split.allocateBytes(), split.arenaBytes(), split.firstInvokeBytes(),
                        split.sharingBytes(), split.laterInvokeBytes(), split.restBytes(), split.censusBytes(),
                        split.census().entrySet().stream().filter(e -> e.getValue() > 0)
                                .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")));
            }
            out.printf("goal: at most working memory %d + %.0f%% of one session's native heap (%d) = %d bytes: %s%n%n",
                    report.workingBytes(), SessionScaling.GOAL_SHARE_OF_ONE_SESSION * 100, r.oneSessionBytes(),
                    report.goalBytes(), !report.goalJudged() ? "not judged (" + report.notJudgedBecause() + ")"
                            : report.withinGoal() ? "met" : "NOT met");
        }
    }
}
