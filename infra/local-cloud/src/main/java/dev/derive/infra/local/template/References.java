package dev.derive.infra.local.template;

/** What {@code Ref}, {@code Fn::GetAtt} and condition names evaluate against. */
public interface References {

  /**
   * The value of {@code Ref name}.
   *
   * @throws TemplateException if nothing of that name exists (yet)
   */
  String ref(String name);

  /**
   * The value of {@code Fn::GetAtt logicalId.attribute}.
   *
   * @throws TemplateException if the resource or the attribute does not exist
   */
  String getAtt(String logicalId, String attribute);

  /**
   * Whether the condition {@code name} of the template's {@code Conditions} section holds.
   *
   * @throws TemplateException if there is no such condition or it cannot be evaluated
   */
  boolean condition(String name);
}
