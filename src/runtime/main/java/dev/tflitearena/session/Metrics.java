package dev.tflitearena.session;

import java.time.Duration;

/**
 * What a {@link Session} or a {@link SessionPool} counted since it was made, for an application to export:
 * runs that returned outputs and the latency percentiles of those runs, runs that threw (a refused input
 * value as well as a failing invoke), and, for a pool, the calls that found no session free and waited
 * ({@code waits}, {@code waited} in all), and those of them that waited in vain ({@code timeouts}). A
 * session's wait counts are 0. The percentiles are bucket bounds of a fixed histogram, at most 1/16 above
 * the true value and never above {@code max}; all are {@link Duration#ZERO} before the first run. Each
 * figure is read on its own while runs go on, not all of them at one instant.
 */
public record Metrics(long runs, long failures, Duration p50, Duration p90, Duration p99, Duration max,
                      long waits, Duration waited, long timeouts) {
}
