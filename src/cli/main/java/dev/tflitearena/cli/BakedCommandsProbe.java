package dev.tflitearena.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tflitearena.fuzz.BakedPlanFuzz;
import dev.tflitearena.fuzz.BakedPlanTampering.Expect;
import dev.tflitearena.isolation.ChildProbe;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;

/**
 * The command line's side of {@code fuzz-baked}: each tampered model through {@code run MODEL} (its baked plan
 * used as a session uses it), {@code plan MODEL} and {@code run ORIGINAL --plan MODEL}, in this child JVM. Each
 * must exit 0, or 2 with one line where the plan is refused; it must use a plan it must accept and no plan it
 * must refuse; outputs must be identical. Anything else ends the item {@code failed}.
 */
public final class BakedCommandsProbe {
    private static final ObjectMapper JSON = new ObjectMapper();

    private BakedCommandsProbe() {
    }

    public static void main(String[] args) {
        ChildProbe.each(List.of(args), BakedCommandsProbe::check);
    }

    private static void check(String item, Consumer<String> stage) {
        Path file = Path.of(item);
        Expect expect = BakedPlanFuzz.expectOf(file);
        stage.accept("run");
        JsonNode run = json(command(0, "run", item, "--json", "--quiet"), "run");
        String used = run.path("baked_plan").asText();
        if (expect == Expect.REFUSED && used.equals("used") || expect == Expect.ACCEPTED && !used.equals("used")) {
            throw new IllegalStateException("run: baked_plan " + used + " for a plan expected "
                    + expect.name().toLowerCase() + ": " + run.path("baked_plan_why").asText());
        }
        stage.accept("plan");
        String planner = json(command(0, "plan", item, "--json", "--quiet"), "plan").path("planner").asText();
        if (expect == Expect.REFUSED && planner.equals("baked") || expect == Expect.ACCEPTED && !planner.equals("baked")) {
            throw new IllegalStateException("plan: planner " + planner + " for a plan expected "
                    + expect.name().toLowerCase());
        }
        stage.accept("run --plan");
        String original = file.resolveSibling(BakedPlanFuzz.ORIGINAL).toString();
        int want = expect == Expect.REFUSED ? Main.EXIT_ERROR : expect == Expect.ACCEPTED ? 0 : -1;
        command(want, "run", original, "--plan", item, "--quiet");
    }

    /** Runs the command; fails unless it exits {@code want} (-1: 0 or a one-line refusal). */
    private static String command(int want, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.run(new PrintWriter(out), new PrintWriter(err), args);
        boolean refusal = status == Main.EXIT_ERROR && err.toString().strip().lines().count() == 1;
        boolean ok = want == -1 ? status == 0 || refusal : status == want && (status != Main.EXIT_ERROR || refusal);
        if (!ok) {
            throw new IllegalStateException(String.join(" ", args) + " exited " + status + (want == -1 ? ""
                    : " (expected " + want + ")") + ": " + err.toString().strip().replace('\n', ' '));
        }
        return out.toString();
    }

    private static JsonNode json(String text, String command) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(command + " printed no JSON: " + text, e);
        }
    }
}
