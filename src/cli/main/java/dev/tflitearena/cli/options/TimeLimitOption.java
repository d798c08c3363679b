package dev.tflitearena.cli.options;

import picocli.CommandLine.Option;

import java.time.Duration;

/** {@code --time-limit} of the commands that may run the exact search ('optimal') on a model's plan. */
public final class TimeLimitOption {
    @Option(names = "--time-limit", defaultValue = "10", paramLabel = "SECONDS", description = "How long 'optimal' "
            + "may search, per subgraph (default: ${DEFAULT-VALUE}).")
    public double seconds;

    public Duration duration() {
        return duration(seconds);
    }

    public static Duration duration(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
