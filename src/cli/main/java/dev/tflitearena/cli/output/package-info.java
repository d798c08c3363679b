/**
 * What the commands print and write: their JSON, plain text tables, the progress on standard error, the reports
 * several commands share (a plan, a group plan, a TFLM plan, the memory of sessions and of a resize), and the
 * files they write, checked before the work.
 */
package dev.tflitearena.cli.output;
