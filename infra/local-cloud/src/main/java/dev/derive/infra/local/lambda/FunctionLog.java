package dev.derive.infra.local.lambda;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * The log of one function: every line its instances print (stdout and stderr) and the Lambda-style
 * {@code START}/{@code END}/{@code REPORT} lines, forwarded to a sink prefixed with the function's
 * logical id and kept in memory (the newest {@code capacity} lines) for tests.
 */
public final class FunctionLog {
  private final String logicalId;
  private final int capacity;
  private final Consumer<String> sink;
  private final Deque<String> lines = new ArrayDeque<>();

  /**
   * @param capacity how many lines to keep; older ones are dropped
   * @param sink receives each line as {@code [logicalId] line}
   */
  public FunctionLog(String logicalId, int capacity, Consumer<String> sink) {
    this.logicalId = logicalId;
    this.capacity = capacity;
    this.sink = sink;
  }

  /** Records one line. */
  public void line(String text) {
    synchronized (lines) {
      if (lines.size() == capacity) {
        lines.removeFirst();
      }
      lines.addLast(text);
    }
    sink.accept("[" + logicalId + "] " + text);
  }

  /** The kept lines, oldest first. */
  public List<String> lines() {
    synchronized (lines) {
      return List.copyOf(lines);
    }
  }
}
