package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.tflitearena.memory.SessionScaling;
import dev.tflitearena.session.SessionOptions;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/** The {@code memory --sessions} result, as text and as JSON. */
final class SessionsReport {
    static final String WORKING_MEASURED_AS = "the session's rw arena (what it reports), plus with XNNPACK the "
            + "per-session native heap beyond what the same sessions need without XNNPACK (the delegate's workspace, "
            + "and its packed weights when the sessions share nothing: sharing sessions share a weights cache)";

    private final Path model;
    private final List<SessionScaling.Report> reports;

    SessionsReport(Path model, List<SessionScaling.Report> reports) {
        this.model = model;
        this.reports = reports;
    }

    ObjectNode toJson() {
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
            run.put("one_session_native_heap_bytes", r.oneSessionBytes());
            run.put("goal_bytes", report.goalBytes());
            if (report.goalJudged()) {
                run.put("within_goal", report.withinGoal());
            } else {
                run.putNull("within_goal");
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

    void printText(PrintWriter out) {
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
            out.printf("goal: at most working memory %d + %.0f%% of one session's native heap (%d) = %d bytes: %s%n%n",
                    report.workingBytes(), SessionScaling.GOAL_SHARE_OF_ONE_SESSION * 100, r.oneSessionBytes(),
                    report.goalBytes(), !report.goalJudged() ? "not judged (XNNPACK's share holds its packed weights "
                            + "when the sessions share nothing)" : report.withinGoal() ? "met" : "NOT met");
        }
    }
}
