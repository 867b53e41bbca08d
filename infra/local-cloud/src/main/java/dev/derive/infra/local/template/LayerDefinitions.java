package dev.derive.infra.local.template;

import java.nio.file.Path;

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
}
