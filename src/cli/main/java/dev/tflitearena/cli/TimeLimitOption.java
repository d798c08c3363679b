package dev.tflitearena.cli;

import picocli.CommandLine.Option;

import java.time.Duration;

/** {@code --time-limit} of the commands that may run the exact search ('optimal') on a model's plan. */
final class TimeLimitOption {
    @Option(names = "--time-limit", defaultValue = "10", paramLabel = "SECONDS", description = "How long 'optimal' "
            + "may search, per subgraph (default: ${DEFAULT-VALUE}).")
    double seconds;

    Duration duration() {
        return duration(seconds);
    }

    static Duration duration(double seconds) {
        return Duration.ofMillis(Math.round(seconds * 1000));
    }
}
