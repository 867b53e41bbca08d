package dev.derive.infra.local.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import software.amazon.awssdk.services.cloudwatchlogs.model.GetQueryResultsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.LogGroup;
import software.amazon.awssdk.services.cloudwatchlogs.model.QueryStatus;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResultField;

/**
 * {@code logs JOB}: every line any function wrote about one job (its fingerprint), in the order
 * they were written, each with its time (metrics too). On the local cloud they are read from the
 * function log a running {@code ./derive up} appends to; on a deployed stack a CloudWatch Logs
 * Insights query runs over the stack's function log groups ({@code /aws/lambda/<stack>-…}) for the
 * last {@code --since} hours (24), sorted by timestamp.
 */
public final class LogsCommand {
  /** How long the Insights query may take before the command gives up. */
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);

  private final OperatorTarget target;

  /** Reads the logs of {@code target}. */
  public LogsCommand(OperatorTarget target) {
    this.target = target;
  }

  /**
   * Prints job {@code jobId}'s lines to {@code out}.
   *
   * @param since how far back a deployed stack's query looks
   * @return the number of lines printed
   * @throws IllegalArgumentException if {@code jobId} is not a fingerprint (64 hex characters)
   */
  public int print(String jobId, Duration since, PrintStream out)
      throws IOException, InterruptedException {
    if (!jobId.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException(
          "a job id is the derivative's fingerprint: 64 lower-case hex characters, got " + jobId);
    }
    return target.localLog() != null ? local(jobId, out) : insights(jobId, since, out);
  }

  /**
   * The local log's lines about the job, ordered by when they were written: each function's output
   * reaches the shared log when its process flushes it, so lines of different functions (and a
   * function's EMF lines beside its log lines) arrive out of order. A line without a time keeps the
   * time of the line before it.
   */
  private int local(String jobId, PrintStream out) throws IOException {
    List<Timed> lines = new ArrayList<>();
    Instant previous = Instant.MIN;
    try (Stream<String> all = Files.lines(target.localLog())) {
      for (String line : (Iterable<String>) all::iterator) {
        if (!line.contains(jobId) || !line.startsWith("[")) {
          continue;
        }
        int close = line.indexOf("] ");
        if (close < 0) {
          continue;
        }
        String text = line.substring(close + 2);
        previous = LogLines.time(text).orElse(previous);
        lines.add(new Timed(previous, LogLines.pretty(line.substring(1, close), text)));
      }
    }
    // a stable sort: lines written at the same instant keep the log's order
    lines.sort(Comparator.comparing(Timed::time));
    lines.forEach(line -> out.println(line.text()));
    return lines.size();
  }

  private record Timed(Instant time, String text) {}

  private int insights(String jobId, Duration since, PrintStream out) throws InterruptedException {
    String prefix = "/aws/lambda/" + target.stackName() + "-";
    List<String> groups =
        target.logs().describeLogGroups(b -> b.logGroupNamePrefix(prefix)).logGroups().stream()
            .map(LogGroup::logGroupName)
            .toList();
    if (groups.isEmpty()) {
      throw new IllegalArgumentException("no log groups named " + prefix + "* in this region");
    }
    Instant end = Instant.now();
    String query =
        "fields @timestamp, @log, @message | filter @message like \""
            + jobId
            + "\" | sort @timestamp asc | limit 10000";
    String queryId =
        target
            .logs()
            .startQuery(
                b ->
                    b.logGroupNames(groups)
                        .startTime(end.minus(since).getEpochSecond())
                        .endTime(end.getEpochSecond())
                        .queryString(query))
            .queryId();
    long deadline = System.nanoTime() + QUERY_TIMEOUT.toNanos();
    GetQueryResultsResponse results;
    do {
      Thread.sleep(1000);
      results = target.logs().getQueryResults(b -> b.queryId(queryId));
    } while ((results.status() == QueryStatus.RUNNING || results.status() == QueryStatus.SCHEDULED)
        && System.nanoTime() < deadline);
    if (results.status() != QueryStatus.COMPLETE) {
      throw new IllegalStateException("the Logs Insights query ended " + results.status());
    }
    for (List<ResultField> row : results.results()) {
      String group = field(row, "@log");
      String function = group.substring(group.lastIndexOf('/') + 1);
      out.println(LogLines.pretty(function, field(row, "@message").strip()));
    }
    return results.results().size();
  }

  private static String field(List<ResultField> row, String name) {
    return row.stream()
        .filter(f -> name.equals(f.field()))
        .map(ResultField::value)
        .findFirst()
        .orElse("");
  }
}
