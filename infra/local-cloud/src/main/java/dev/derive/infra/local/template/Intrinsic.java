package dev.derive.infra.local.template;

import java.util.Map;

/**
 * A CloudFormation intrinsic function call found in a template, kept unevaluated until the values
 * it refers to exist (see {@link IntrinsicResolver}).
 */
public sealed interface Intrinsic {

  /**
   * {@code Ref}: the value of a parameter, a pseudo parameter (e.g. {@code AWS::Region}), or a
   * resource's reference value (a queue's URL, a bucket's or table's name).
   */
  record Ref(String name) implements Intrinsic {}

  /** {@code Fn::GetAtt}: an attribute of a resource, e.g. {@code ImageQueue.Arn}. */
  record GetAtt(String logicalId, String attribute) implements Intrinsic {}

  /**
   * {@code Fn::Sub}: a string with {@code ${Name}} and {@code ${Resource.Attribute}} placeholders;
   * {@code variables} are the optional local substitutions of the two-argument form.
   */
  record Sub(String template, Map<String, Object> variables) implements Intrinsic {}
}
