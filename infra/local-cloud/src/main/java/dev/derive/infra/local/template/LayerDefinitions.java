package dev.derive.infra.local.template;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code AWS::Serverless::LayerVersion} resources of a template. Locally a layer version is not
 * published anywhere: its {@code Ref} is an ARN of the form Lambda gives version 1 of a layer
 * ({@link #arn}), and a function that lists it in {@code Layers} gets its {@code ContentUri}
 * extracted into the function's own {@code /opt} folder (see {@code
 * dev.derive.infra.local.lambda.FunctionLayers}).
 */
public final class LayerDefinitions {
  /** The resource type of a SAM layer version. */
  public static final String TYPE = "AWS::Serverless::LayerVersion";

  private LayerDefinitions() {}

  /**
   * The ARN of version 1 of the layer called {@code layerName}: {@code
   * arn:aws:lambda:<region>:<account>:layer:<name>:1}.
   */
  public static String arn(String region, String layerName) {
    return "arn:aws:lambda:"
        + region
        + ":"
        + StackReferences.ACCOUNT_ID
        + ":layer:"
        + layerName
        + ":1";
  }

  /** The layer's {@code LayerName}, else {@code <stack>-<logicalId>} as SAM names it. */
  public static String layerName(Template.Resource layer, References references, String stackName) {
    Object name = IntrinsicResolver.resolve(layer.properties().get("LayerName"), references);
    return name instanceof String text ? text : stackName + "-" + layer.logicalId();
  }

  /**
   * The layer {@code logicalId} of {@code template}.
   *
   * @throws TemplateException if the layer's {@code Condition} is false or its {@code ContentUri}
   *     is not a local path
   */
  static LayerDefinition definition(Template template, String logicalId, References references) {
    Template.Resource layer = template.resource(logicalId);
    if (!layer.isActive(references)) {
      throw new TemplateException(
          "the layer "
              + logicalId
              + " is not created: its condition "
              + layer.condition()
              + " is false");
    }
    Object content = IntrinsicResolver.resolve(layer.properties().get("ContentUri"), references);
    if (!(content instanceof String path)) {
      throw new TemplateException(
          logicalId
              + ".ContentUri must be a local path (S3 locations are not supported), got "
              + content);
    }
    return new LayerDefinition(logicalId, template.directory().resolve(Path.of(path)).normalize());
  }

  /** What a {@code Ref} to a layer version of the template evaluates to while reading Layers. */
  private static final String LAYER_REF = "local-layer:";

  /**
   * {@code Layers} ({@code value}, unevaluated) as the template's layer versions, in order: each
   * entry must evaluate to a {@code Ref} of one ({@code Fn::If} and conditions are evaluated).
   *
   * @throws TemplateException for a literal ARN or anything else that is not a layer of the
   *     template
   */
  static List<LayerDefinition> ofFunction(
      Template template, String id, Object value, References references) {
    if (value == null) {
      return List.of();
    }
    List<String> layerIds =
        template.resourcesOfType(TYPE).stream().map(Template.Resource::logicalId).toList();
    References layerAware =
        new References() {
          @Override
          public String ref(String name) {
            return layerIds.contains(name) ? LAYER_REF + name : references.ref(name);
          }

          @Override
          public String getAtt(String logicalId, String attribute) {
            return references.getAtt(logicalId, attribute);
          }

          @Override
          public boolean condition(String name) {
            return references.condition(name);
          }
        };
    Object resolved = IntrinsicResolver.resolve(value, layerAware);
    if (!(resolved instanceof List<?> list)) {
      throw new TemplateException(id + ".Layers must be a list of layer versions, got " + value);
    }
    List<LayerDefinition> definitions = new ArrayList<>();
    for (Object entry : list) {
      String text = String.valueOf(entry);
      if (!text.startsWith(LAYER_REF)) {
        throw new TemplateException(
            id
                + ".Layers names "
                + text
                + ", which is not a layer of the template: the local cloud runs only layers whose"
                + " content it has (a !Ref to an "
                + TYPE
                + " with a local ContentUri)");
      }
      definitions.add(definition(template, text.substring(LAYER_REF.length()), references));
    }
    return List.copyOf(definitions);
  }
}
