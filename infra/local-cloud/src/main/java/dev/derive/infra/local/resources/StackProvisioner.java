package dev.derive.infra.local.resources;

import dev.derive.infra.local.template.FunctionDefinitions;
import dev.derive.infra.local.template.IntrinsicResolver;
import dev.derive.infra.local.template.LayerDefinitions;
import dev.derive.infra.local.template.LocalMeaning;
import dev.derive.infra.local.template.StackReferences;
import dev.derive.infra.local.template.Template;
import dev.derive.infra.local.template.TemplateException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Creates a template's storage and messaging resources in dependency order (a queue's dead-letter
 * queue before the queue), registering each one's {@code Ref} value and attributes in the {@link
 * StackReferences} so later resources and the functions' environment can use them. Functions
 * ({@code AWS::Serverless::Function}), HTTP APIs ({@code AWS::Serverless::HttpApi}) and layer
 * versions ({@code AWS::Serverless::LayerVersion}) are not created here, only registered (a
 * function's {@code Ref} is its name, an API's its id, a layer version's its ARN, {@link
 * LayerDefinitions#arn}: the functions that list it get its content in their {@code /opt}). A
 * CloudFront distribution is not created either; it is registered with an empty {@code Ref}, {@code
 * Id} and {@code DomainName}, so {@code https://${Cdn.DomainName}} reads {@code https://}, a URL
 * with no host, which the coordinator takes as "no CDN" (it then redirects to presigned URLs).
 */
public final class StackProvisioner {
  /** The API id the local HTTP API reports ({@code Ref} of an {@code AWS::Serverless::HttpApi}). */
  public static final String LOCAL_API_ID = "localapi";

  private static final String HTTP_API = "AWS::Serverless::HttpApi";
  private static final String CDN = "AWS::CloudFront::Distribution";

  private final Map<String, ResourceProvisioner> provisioners = new LinkedHashMap<>();
  private final String stackName;
  private final String region;
  private final Consumer<String> log;

  /**
   * @param provisioners one per supported resource type
   * @param log receives one line per created resource
   */
  public StackProvisioner(
      List<ResourceProvisioner> provisioners,
      String stackName,
      String region,
      Consumer<String> log) {
    provisioners.forEach(p -> this.provisioners.put(p.type(), p));
    this.stackName = stackName;
    this.region = region;
    this.log = log;
  }

  /**
   * Creates every resource of {@code template} on the endpoint.
   *
   * @return the created resources by logical id, in creation order
   * @throws TemplateException if a resource type is not supported or dependencies form a cycle
   * @throws ResourceProvisioningException if the endpoint refuses a resource
   */
  public Map<String, ProvisionedResource> provision(Template template, StackReferences references) {
    Map<String, ProvisionedResource> created = new LinkedHashMap<>();
    for (Template.Resource resource : template.resources().values()) {
      if (!resource.isActive(references)) {
        log.accept(LocalMeaning.inactive(resource));
        continue;
      }
      ProvisionedResource local = localResource(resource, references);
      if (local != null) {
        references.register(local.logicalId(), local.reference(), local.attributes());
        created.put(local.logicalId(), local);
        LocalMeaning.skipped(resource, references).ifPresent(log);
      } else if (LocalMeaning.isSkipped(resource.type())) {
        log.accept(LocalMeaning.skipped(resource, references).orElseThrow());
      } else if (!provisioners.containsKey(resource.type())) {
        throw new TemplateException(
            "resource "
                + resource.logicalId()
                + " has type "
                + resource.type()
                + ", which the local cloud does not support (it supports "
                + provisioners.keySet()
                + ", "
                + FunctionDefinitions.TYPE
                + ", "
                + LayerDefinitions.TYPE
                + " and "
                + HTTP_API
                + ")");
      }
    }
    for (Template.Resource resource : creationOrder(template, references)) {
      Map<String, Object> properties =
          IntrinsicResolver.resolveMap(resource.properties(), references);
      ProvisionedResource result =
          provisioners.get(resource.type()).provision(resource.logicalId(), properties);
      references.register(result.logicalId(), result.reference(), result.attributes());
      created.put(result.logicalId(), result);
      log.accept(resource.type() + " " + resource.logicalId() + " -> " + result.reference());
    }
    return created;
  }

  private ProvisionedResource localResource(
      Template.Resource resource, StackReferences references) {
    if (resource.type().equals(FunctionDefinitions.TYPE)) {
      Object name =
          IntrinsicResolver.resolve(resource.properties().get("FunctionName"), references);
      String functionName =
          name instanceof String text ? text : stackName + "-" + resource.logicalId();
      String arn =
          "arn:aws:lambda:"
              + region
              + ":"
              + StackReferences.ACCOUNT_ID
              + ":function:"
              + functionName;
      return new ProvisionedResource(
          resource.logicalId(), resource.type(), functionName, Map.of("Arn", arn));
    }
    if (resource.type().equals(LayerDefinitions.TYPE)) {
      String arn =
          LayerDefinitions.arn(region, LayerDefinitions.layerName(resource, references, stackName));
      return new ProvisionedResource(
          resource.logicalId(), resource.type(), arn, Map.of("LayerVersionArn", arn));
    }
    if (resource.type().equals(CDN)) {
      return new ProvisionedResource(
          resource.logicalId(), resource.type(), "", Map.of("DomainName", "", "Id", ""));
    }
    if (resource.type().equals(HTTP_API)) {
      return new ProvisionedResource(
          resource.logicalId(), resource.type(), LOCAL_API_ID, Map.of("ApiId", LOCAL_API_ID));
    }
    return null;
  }

  /** Kahn's algorithm over Ref/GetAtt/Sub references and DependsOn, in template order. */
  private List<Template.Resource> creationOrder(Template template, StackReferences references) {
    Map<String, Set<String>> pending = new LinkedHashMap<>();
    for (Template.Resource resource : template.resources().values()) {
      if (!provisioners.containsKey(resource.type()) || !resource.isActive(references)) {
        continue;
      }
      Set<String> dependencies = new LinkedHashSet<>(resource.dependsOn());
      for (String name : IntrinsicResolver.referencedNames(resource.properties())) {
        if (!references.isParameter(name)) {
          dependencies.add(name);
        }
      }
      dependencies.retainAll(
          template.resources().values().stream()
              .filter(r -> provisioners.containsKey(r.type()) && r.isActive(references))
              .map(Template.Resource::logicalId)
              .toList());
      pending.put(resource.logicalId(), dependencies);
    }
    List<Template.Resource> order = new ArrayList<>();
    Set<String> done = new LinkedHashSet<>();
    while (!pending.isEmpty()) {
      String next =
          pending.entrySet().stream()
              .filter(e -> done.containsAll(e.getValue()))
              .map(Map.Entry::getKey)
              .findFirst()
              .orElseThrow(
                  () ->
                      new TemplateException(
                          "resources " + pending.keySet() + " depend on each other in a cycle"));
      pending.remove(next);
      done.add(next);
      order.add(template.resource(next));
    }
    return order;
  }
}
