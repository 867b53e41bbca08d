package dev.derive.infra.local.template;

/** What {@code Ref} and {@code Fn::GetAtt} evaluate against. */
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
}
