package dev.derive.infra.local.template;

import java.util.Map;

/** Stack references for reading a template's functions without provisioning anything. */
final class FakeStack {
  private FakeStack() {}

  /**
   * References in which every resource of {@code template} is registered with made-up values:
   * {@code Ref} gives {@code ref:<id>}, and the attributes the template reads ({@code Arn}, {@code
   * QueueName}, {@code DomainName}) name the resource too.
   */
  static StackReferences references(Template template, Map<String, String> parameters) {
    StackReferences references =
        new StackReferences(template, "derive-local", "us-east-1", parameters);
    for (Template.Resource resource : template.resources().values()) {
      String id = resource.logicalId();
      references.register(
          id,
          "ref:" + id,
          Map.of("Arn", "arn:" + id, "QueueName", "name:" + id, "DomainName", "domain." + id));
    }
    return references;
  }
}
