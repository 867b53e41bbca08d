package dev.derive.infra.local.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * {@code status}: each queue of the stack with the messages waiting, in flight (received, not yet
 * deleted) and in its dead-letter queue, then the jobs still PENDING or RUNNING. The job count
 * scans the jobs table with a filter (consumes read capacity for the whole table: fine for an
 * operator's look, not for a loop).
 */
public final class StatusCommand {
  private final OperatorTarget target;

  /** Reports on {@code target}. */
  public StatusCommand(OperatorTarget target) {
    this.target = target;
  }

  /** Prints the report to {@code out}. */
  public void print(PrintStream out) {
    String prefix = target.queueName("");
    List<String> urls =
        target.sqs().listQueues(b -> b.queueNamePrefix(prefix).maxResults(1000)).queueUrls();
    Map<String, String> byName = new TreeMap<>();
    for (String url : urls) {
      byName.put(url.substring(url.lastIndexOf('/') + 1).substring(prefix.length()), url);
    }
    out.printf("%-16s %8s %10s %14s%n", "queue", "waiting", "in flight", "dead-lettered");
    for (Map.Entry<String, String> queue : byName.entrySet()) {
      if (queue.getKey().endsWith("-dlq")) {
        continue;
      }
      Map<QueueAttributeName, String> depth = depth(queue.getValue());
      String dlq = byName.get(queue.getKey() + "-dlq");
      String dead =
          dlq == null ? "-" : depth(dlq).get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES);
      out.printf(
          "%-16s %8s %10s %14s%n",
          queue.getKey(),
          depth.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES),
          depth.get(QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE),
          dead);
    }
    Map<String, Integer> inFlight = jobsInFlight();
    int total = inFlight.values().stream().mapToInt(Integer::intValue).sum();
    out.println();
    out.println(
        "jobs in flight: "
            + total
            + (total == 0
                ? ""
                : " " + inFlight.toString().replace("=", " ").replace("{", "(").replace("}", ")")));
  }

  private Map<QueueAttributeName, String> depth(String url) {
    return target
        .sqs()
        .getQueueAttributes(
            b ->
                b.queueUrl(url)
                    .attributeNames(
                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES,
                        QueueAttributeName.APPROXIMATE_NUMBER_OF_MESSAGES_NOT_VISIBLE))
        .attributes();
  }

  /** PENDING and RUNNING jobs by status. */
  private Map<String, Integer> jobsInFlight() {
    Map<String, Integer> counts = new TreeMap<>();
    Map<String, AttributeValue> start = null;
    do {
      ScanRequest.Builder scan =
          ScanRequest.builder()
              .tableName(target.jobsTable())
              .projectionExpression("#s")
              .filterExpression("#s IN (:pending, :running)")
              .expressionAttributeNames(Map.of("#s", "status"))
              .expressionAttributeValues(
                  Map.of(
                      ":pending", AttributeValue.fromS("PENDING"),
                      ":running", AttributeValue.fromS("RUNNING")));
      if (start != null) {
        scan.exclusiveStartKey(start);
      }
      ScanResponse page = target.dynamoDb().scan(scan.build());
      for (Map<String, AttributeValue> item : page.items()) {
        counts.merge(item.get("status").s(), 1, Integer::sum);
      }
      start =
          page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
              ? page.lastEvaluatedKey()
              : null;
    } while (start != null);
    return counts;
  }
}
