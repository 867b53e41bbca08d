/**
 * What every function shares to be operated: the correlation fields of its structured log lines
 * ({@link dev.derive.protocol.telemetry.Correlation}) and the CloudWatch embedded-metric-format
 * metrics it writes ({@link dev.derive.protocol.telemetry.Metric}, {@link
 * dev.derive.protocol.telemetry.EmbeddedMetrics}). docs/observability.md says which library does
 * what and why.
 */
package dev.derive.protocol.telemetry;
