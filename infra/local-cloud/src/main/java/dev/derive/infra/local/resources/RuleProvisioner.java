package dev.derive.infra.local.resources;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutRuleResponse;
import software.amazon.awssdk.services.eventbridge.model.PutTargetsResponse;
import software.amazon.awssdk.services.eventbridge.model.Target;

/**
 * {@code AWS::Events::Rule}: honours {@code Name} (default {@code <stack>-<logicalId>}), {@code
 * EventBusName} (a name or an ARN; the default bus when unset), {@code EventPattern} (a mapping or
 * a JSON string), {@code Description}, {@code State} and {@code Targets}. Once the rule exists the
 * endpoint matches each event put on its bus (and, on moto, each S3 EventBridge notification)
 * against the pattern and sends it to the targets, so an SQS target's event source mapping delivers
 * it to its function like any other message.
 *
 * <p>Targets are put with {@code Id}, {@code Arn}, {@code Input}, {@code InputPath}, {@code
 * InputTransformer}, {@code SqsParameters}, {@code DeadLetterConfig}, {@code RetryPolicy} and
 * {@code RoleArn}. Only targets the endpoint can deliver to here are put: SQS queues and event
 * buses; any other (a Lambda function, a log group …) gets one line saying it is not delivered
 * locally. A {@code DISABLED} rule is created without targets (moto would deliver to them anyway),
 * and a {@code ScheduleExpression} gets a line saying schedules do not fire locally.
 *
 * <p>{@code Ref} is the rule name on the default bus and {@code <bus name>|<rule name>} on another,
 * as CloudFormation's; attribute {@code Arn}.
 */
public final class RuleProvisioner implements ResourceProvisioner {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String DEFAULT_BUS = "default";

  private final EventBridgeClient events;
  private final String stackName;
  private final Consumer<String> log;

  /**
   * Creates rules with {@code events}; {@code stackName} prefixes default names; {@code log}
   * receives a line for each target or setting that has no local effect.
   */
  public RuleProvisioner(EventBridgeClient events, String stackName, Consumer<String> log) {
    this.events = events;
    this.stackName = stackName;
    this.log = log;
  }

  @Override
  public String type() {
    return "AWS::Events::Rule";
  }

  @Override
  public ProvisionedResource provision(String logicalId, Map<String, Object> properties) {
    String name = String.valueOf(properties.getOrDefault("Name", stackName + "-" + logicalId));
    String bus = busName(properties.get("EventBusName"));
    String state = String.valueOf(properties.getOrDefault("State", "ENABLED"));
    Object schedule = properties.get("ScheduleExpression");
    if (schedule != null) {
      log.accept(
          "AWS::Events::Rule "
              + logicalId
              + ": ScheduleExpression "
              + schedule
              + " does not fire locally");
    }
    try {
      PutRuleResponse rule =
          events.putRule(
              b ->
                  b.name(name)
                      .eventBusName(bus)
                      .eventPattern(eventPattern(logicalId, properties.get("EventPattern")))
                      .scheduleExpression(schedule == null ? null : String.valueOf(schedule))
                      .description(text(properties.get("Description")))
                      .state(state));
      List<Target> targets = targets(logicalId, properties.get("Targets"));
      if ("DISABLED".equals(state)) {
        log.accept(
            "AWS::Events::Rule " + logicalId + ": DISABLED, so its targets are not put locally");
      } else if (!targets.isEmpty()) {
        PutTargetsResponse put =
            events.putTargets(b -> b.rule(name).eventBusName(bus).targets(targets));
        if (put.failedEntryCount() != null && put.failedEntryCount() > 0) {
          throw new ResourceProvisioningException(
              "cannot put the targets of rule "
                  + name
                  + " ("
                  + logicalId
                  + "): "
                  + put.failedEntries());
        }
      }
      String reference = DEFAULT_BUS.equals(bus) ? name : bus + "|" + name;
      return new ProvisionedResource(logicalId, type(), reference, Map.of("Arn", rule.ruleArn()));
    } catch (SdkException e) {
      throw new ResourceProvisioningException(
          "cannot create rule " + name + " (" + logicalId + ")", e);
    }
  }

  /** A bus given by ARN ({@code arn:…:event-bus/<name>}) or by name; the default bus if unset. */
  private static String busName(Object value) {
    if (value == null) {
      return DEFAULT_BUS;
    }
    String text = String.valueOf(value);
    int slash = text.lastIndexOf('/');
    return text.startsWith("arn:") && slash > 0 ? text.substring(slash + 1) : text;
  }

  private static String eventPattern(String logicalId, Object pattern) {
    if (pattern == null || pattern instanceof String) {
      return (String) pattern;
    }
    try {
      return JSON.writeValueAsString(pattern);
    } catch (JsonProcessingException e) {
      throw new ResourceProvisioningException("cannot encode " + logicalId + ".EventPattern", e);
    }
  }

  private List<Target> targets(String logicalId, Object value) {
    List<Target> targets = new ArrayList<>();
    if (!(value instanceof List<?> list)) {
      return targets;
    }
    for (Object item : list) {
      Map<String, Object> target = stringMap(item);
      String arn = String.valueOf(target.get("Arn"));
      String[] parts = arn.split(":", 6);
      String service = parts.length > 2 ? parts[2] : "";
      boolean deliverable =
          service.equals("sqs") || (service.equals("events") && arn.contains(":event-bus/"));
      if (!deliverable) {
        log.accept(
            "AWS::Events::Rule "
                + logicalId
                + ": target "
                + target.get("Id")
                + " ("
                + arn
                + ") is not delivered locally: only SQS queues and event buses are");
        continue;
      }
      targets.add(target(target));
    }
    return targets;
  }

  private static Target target(Map<String, Object> target) {
    Target.Builder builder =
        Target.builder()
            .id(String.valueOf(target.get("Id")))
            .arn(String.valueOf(target.get("Arn")))
            .input(text(target.get("Input")))
            .inputPath(text(target.get("InputPath")))
            .roleArn(text(target.get("RoleArn")));
    Map<String, Object> transformer = stringMap(target.get("InputTransformer"));
    if (!transformer.isEmpty()) {
      Map<String, String> paths = new LinkedHashMap<>();
      stringMap(transformer.get("InputPathsMap"))
          .forEach((k, v) -> paths.put(k, String.valueOf(v)));
      builder.inputTransformer(
          t -> t.inputPathsMap(paths).inputTemplate(text(transformer.get("InputTemplate"))));
    }
    Object groupId = stringMap(target.get("SqsParameters")).get("MessageGroupId");
    if (groupId != null) {
      builder.sqsParameters(p -> p.messageGroupId(String.valueOf(groupId)));
    }
    Object deadLetterArn = stringMap(target.get("DeadLetterConfig")).get("Arn");
    if (deadLetterArn != null) {
      builder.deadLetterConfig(d -> d.arn(String.valueOf(deadLetterArn)));
    }
    Map<String, Object> retry = stringMap(target.get("RetryPolicy"));
    if (!retry.isEmpty()) {
      builder.retryPolicy(
          r -> {
            if (retry.get("MaximumRetryAttempts") != null) {
              r.maximumRetryAttempts(Integer.valueOf("" + retry.get("MaximumRetryAttempts")));
            }
            if (retry.get("MaximumEventAgeInSeconds") != null) {
              r.maximumEventAgeInSeconds(
                  Integer.valueOf("" + retry.get("MaximumEventAgeInSeconds")));
            }
          });
    }
    return builder.build();
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  private static Map<String, Object> stringMap(Object value) {
    Map<String, Object> map = new LinkedHashMap<>();
    if (value instanceof Map<?, ?> source) {
      source.forEach((k, v) -> map.put(String.valueOf(k), v));
    }
    return map;
  }
}
