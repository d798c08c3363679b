package dev.tflitearena.session;

import dev.tflitearena.bridge.handover.JavaArena;
import dev.tflitearena.graph.Graph;
import dev.tflitearena.plan.catalog.Planners;
import dev.tflitearena.plan.group.GroupPlan;
import dev.tflitearena.plan.group.GroupPlanner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Models run one after another on one Java arena, as a pipeline runs a detector, then a landmark model: the
 * group plans their rw arenas as one timeline ({@link GroupPlanner}), so that the arena is about the largest
 * model's, not the sum, and each model's session runs on its part of it. Persistent arenas stay per model.
 *
 * <p>Runs are serialized: every method is synchronized on the group, so no two models run at once, and
 * {@link #close()} waits for a run in progress. Any model may run next. Each run writes every input of its
 * model and may overwrite what the group's other models left in the arena: a model's outputs stay valid in
 * the arena until the next model of the group runs. The {@link Outputs} a run returns are copies, valid for
 * good. A model given twice gets two sessions, each with its persistent arena.
 */
public final class ArenaGroup implements AutoCloseable {
    private final GroupPlan plan;
    private final List<Session> sessions;
    private boolean closed;

    private ArenaGroup(GroupPlan plan, List<Session> sessions) {
        this.plan = plan;
        this.sessions = sessions;
    }

    /**
     * A session per model, in group order, on one arena that the Java planner of {@code options} places (with
     * {@link Planners#DEFAULT_TIME_LIMIT} for {@code optimal}). Models and the group are independent: closing a
     * model leaves the group running.
     */
    public static ArenaGroup of(List<TfLiteModel> models, SessionOptions options) {
        if (models.isEmpty()) {
            throw new IllegalArgumentException("an arena group needs at least one model");
        }
        if (options.javaPlanner() == null) {
            throw new IllegalArgumentException("an arena group is placed by a Java planner, and '"
                    + SessionOptions.NATIVE + "' gives each model its own arena; valid: " + Planners.names());
        }
        List<InterpreterRecipe> alone = models.stream().map(m -> m.recipe(options)).toList();
        List<Graph> graphs = alone.stream().map(InterpreterRecipe::graph).toList();
        GroupPlan plan = GroupPlanner.plan(graphs, options.planner(), Planners.DEFAULT_TIME_LIMIT);
        List<JavaArena> arenas = JavaArena.allocateGroup(graphs, plan);
        List<Session> sessions = new ArrayList<>();
        try {
            for (int m = 0; m < models.size(); m++) {
                sessions.add(new Session(alone.get(m).inGroup(arenas.get(m))));
            }
        } catch (RuntimeException e) {
            sessions.forEach(Session::close);
            throw e;
        } finally {
            // Each interpreter keeps its model's arena, and so the buffer, alive until it closes.
            arenas.forEach(JavaArena::close);
        }
        return new ArenaGroup(plan, List.copyOf(sessions));
    }

    /** How many models the group runs. */
    public int size() {
        return sessions.size();
    }

    public synchronized List<TensorInfo> inputs(int model) {
        return session(model).inputs();
    }

    public synchronized List<TensorInfo> outputs(int model) {
        return session(model).outputs();
    }

    /** {@link Session#run(Object...)} of the model at {@code model}, in group order. */
    public synchronized Outputs run(int model, Object... values) {
        return session(model).run(values);
    }

    /** {@link Session#run(Map)} of the model at {@code model}, in group order. */
    public synchronized Outputs run(int model, Map<String, ?> values) {
        return session(model).run(values);
    }

    /** The group's plan: the shared region, each model's plan in it, and each model's rw bytes alone. */
    public GroupPlan plan() {
        return plan;
    }

    /** The rw bytes the group runs on: the shared region and the models' other subgraphs' arenas. */
    public long arenaBytes() {
        return plan.arenaBytes();
    }

    /** Bytes of the persistent arenas of the model at {@code model}: its own, as {@link Session#persistentArenaBytes()}. */
    public synchronized long persistentArenaBytes(int model) {
        return session(model).persistentArenaBytes();
    }

    private Session session(int model) {
        if (closed) {
            throw new IllegalStateException("arena group is closed");
        }
        if (model < 0 || model >= sessions.size()) {
            throw new IllegalArgumentException("no model " + model + "; the group has " + sessions.size()
                    + " (0.." + (sessions.size() - 1) + ")");
        }
        return sessions.get(model);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            sessions.forEach(Session::close);
        }
    }
}
