package dev.derive.infra.local.template;

import java.util.List;
import java.util.Map;

/**
 * A CloudFormation intrinsic function call found in a template, kept unevaluated until the values
 * it refers to exist (see {@link IntrinsicResolver}). The condition functions ({@link Equals},
 * {@link Not}, {@link And}, {@link Or}, {@link ConditionRef}) evaluate to booleans and appear in
 * the {@code Conditions} section and as the condition of {@link If}.
 */
public sealed interface Intrinsic {

  /**
   * {@code Ref}: the value of a parameter, a pseudo parameter (e.g. {@code AWS::Region}; {@code
   * AWS::NoValue} removes the property or list element it stands for), or a resource's reference
   * value (a queue's URL, a bucket's or table's name).
   */
  record Ref(String name) implements Intrinsic {}

  /** {@code Fn::GetAtt}: an attribute of a resource, e.g. {@code ImageQueue.Arn}. */
  record GetAtt(String logicalId, String attribute) implements Intrinsic {}

  /**
   * {@code Fn::Sub}: a string with {@code ${Name}} and {@code ${Resource.Attribute}} placeholders;
   * {@code variables} are the optional local substitutions of the two-argument form.
   */
  record Sub(String template, Map<String, Object> variables) implements Intrinsic {}

  /** {@code Fn::If}: {@code whenTrue} if the named condition holds, else {@code whenFalse}. */
  record If(String condition, Object whenTrue, Object whenFalse) implements Intrinsic {}

  /** {@code Fn::Join}: the values (a list, or an intrinsic giving one) joined by delimiter. */
  record Join(String delimiter, Object values) implements Intrinsic {}

  /** {@code Fn::Select}: the element at a zero-based index of a list. */
  record Select(Object index, Object values) implements Intrinsic {}

  /** {@code Fn::Split}: a string split at every occurrence of a literal delimiter. */
  record Split(String delimiter, Object source) implements Intrinsic {}

  /** {@code Fn::Equals}: whether two values are equal as strings. */
  record Equals(Object left, Object right) implements Intrinsic {}

  /** {@code Fn::Not}: the negation of a condition. */
  record Not(Object condition) implements Intrinsic {}

  /** {@code Fn::And}: whether all conditions hold. */
  record And(List<Object> conditions) implements Intrinsic {}

  /** {@code Fn::Or}: whether any condition holds. */
  record Or(List<Object> conditions) implements Intrinsic {}

  /** {@code Condition}: the value of a named condition of the {@code Conditions} section. */
  record ConditionRef(String name) implements Intrinsic {}
}
