package dev.derive.infra.local.template;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The values a template's intrinsics evaluate to in one local stack: parameters (defaults, then
 * overrides), pseudo parameters, the template's conditions (evaluated on first use against those
 * parameters), and the reference values and attributes of resources as they are created ({@link
 * #register}).
 *
 * <p>Pseudo parameters: {@code AWS::StackName} (the stack name), {@code AWS::AccountId} ({@value
 * #ACCOUNT_ID}, moto's default account), {@code AWS::Region}, {@code AWS::URLSuffix} ({@code
 * amazonaws.com}), {@code AWS::Partition} ({@code aws}), {@code AWS::StackId}.
 */
public final class StackReferences implements References {
  /** The account id moto uses unless told otherwise. */
  public static final String ACCOUNT_ID = "123456789012";

  private final Map<String, String> values = new LinkedHashMap<>();
  private final Map<String, Registered> resources = new ConcurrentHashMap<>();
  private final Map<String, Object> conditionDefinitions;
  private final Map<String, Boolean> conditions = new ConcurrentHashMap<>();
  private final Set<String> evaluating = ConcurrentHashMap.newKeySet();

  /** The reference value and attributes of one created resource. */
  private record Registered(String reference, Map<String, String> attributes) {}

  /**
   * @param template supplies the parameters and their defaults
   * @param stackName the value of {@code AWS::StackName}
   * @param region the value of {@code AWS::Region}
   * @param overrides parameter values that replace the defaults
   * @throws TemplateException if an override names no parameter, or a parameter has no value
   */
  public StackReferences(
      Template template, String stackName, String region, Map<String, String> overrides) {
    conditionDefinitions = Map.copyOf(template.conditions());
    values.put("AWS::StackName", stackName);
    values.put("AWS::AccountId", ACCOUNT_ID);
    values.put("AWS::Region", region);
    values.put("AWS::URLSuffix", "amazonaws.com");
    values.put("AWS::Partition", "aws");
    values.put(
        "AWS::StackId",
        "arn:aws:cloudformation:" + region + ":" + ACCOUNT_ID + ":stack/" + stackName + "/local");
    for (String name : overrides.keySet()) {
      if (!template.parameters().containsKey(name)) {
        throw new TemplateException("parameter override " + name + " names no template parameter");
      }
    }
    for (Template.Parameter parameter : template.parameters().values()) {
      String value = overrides.getOrDefault(parameter.name(), parameter.defaultValue());
      if (value == null) {
        throw new TemplateException(
            "parameter " + parameter.name() + " has no Default and no override");
      }
      values.put(parameter.name(), value);
    }
  }

  /**
   * Records a created resource: {@code reference} is what {@code Ref} returns, {@code attributes}
   * what {@code Fn::GetAtt} returns.
   */
  public void register(String logicalId, String reference, Map<String, String> attributes) {
    resources.put(logicalId, new Registered(reference, Map.copyOf(attributes)));
  }

  /** Whether {@code name} is a parameter or a pseudo parameter (not a resource). */
  public boolean isParameter(String name) {
    return values.containsKey(name);
  }

  @Override
  public String ref(String name) {
    String value = values.get(name);
    if (value != null) {
      return value;
    }
    Registered resource = resources.get(name);
    if (resource != null) {
      return resource.reference();
    }
    throw new TemplateException(
        "Ref " + name + ": no such parameter, pseudo parameter or created resource");
  }

  @Override
  public boolean condition(String name) {
    Boolean known = conditions.get(name);
    if (known != null) {
      return known;
    }
    Object definition = conditionDefinitions.get(name);
    if (definition == null) {
      throw new TemplateException(
          "condition " + name + " is not defined in the template's Conditions section");
    }
    if (!evaluating.add(name)) {
      throw new TemplateException("condition " + name + " refers to itself");
    }
    try {
      boolean value = IntrinsicResolver.condition(definition, this);
      conditions.put(name, value);
      return value;
    } finally {
      evaluating.remove(name);
    }
  }

  @Override
  public String getAtt(String logicalId, String attribute) {
    Registered resource = resources.get(logicalId);
    if (resource == null) {
      throw new TemplateException(
          "Fn::GetAtt " + logicalId + "." + attribute + ": no such created resource");
    }
    String value = resource.attributes().get(attribute);
    if (value == null) {
      throw new TemplateException(
          "Fn::GetAtt "
              + logicalId
              + "."
              + attribute
              + ": the local cloud knows only "
              + resource.attributes().keySet());
    }
    return value;
  }
}
