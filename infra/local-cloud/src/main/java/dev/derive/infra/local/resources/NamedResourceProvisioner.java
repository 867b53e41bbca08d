package dev.derive.infra.local.resources;

import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * A provisioner of a resource with a physical name: the name comes from the resource's name
 * property, or, as CloudFormation does when that is absent, from {@code <stack>-<logicalId>}; any
 * SDK failure while creating it becomes one {@link ResourceProvisioningException} naming the
 * resource. Subclasses only create the resource once its name is known.
 */
abstract class NamedResourceProvisioner implements ResourceProvisioner {
  private final String type;
  private final String nameProperty;
  private final String noun;
  private final String stackName;

  /**
   * @param type the CloudFormation type, e.g. {@code AWS::SQS::Queue}
   * @param nameProperty the property holding the physical name, e.g. {@code QueueName}
   * @param noun what the resource is called in an error message, e.g. {@code queue}
   * @param stackName the stack whose name prefixes default names
   */
  NamedResourceProvisioner(String type, String nameProperty, String noun, String stackName) {
    this.type = type;
    this.nameProperty = nameProperty;
    this.noun = noun;
    this.stackName = stackName;
  }

  @Override
  public final String type() {
    return type;
  }

  @Override
  public final ProvisionedResource provision(String logicalId, Map<String, Object> properties) {
    String name =
        String.valueOf(
            properties.getOrDefault(
                nameProperty, defaultName(properties).apply(stackName + "-" + logicalId)));
    try {
      return create(logicalId, name, properties);
    } catch (SdkException e) {
      throw new ResourceProvisioningException(
          "cannot create " + noun + " " + name + " (" + logicalId + ")", e);
    }
  }

  /**
   * How the default {@code <stack>-<logicalId>} becomes a valid name for this type (identity unless
   * overridden: S3 wants lower case, FIFO queues a {@code .fifo} suffix).
   */
  UnaryOperator<String> defaultName(Map<String, Object> properties) {
    return UnaryOperator.identity();
  }

  /**
   * Creates the resource named {@code name}, or brings an existing one to {@code properties}.
   *
   * @throws SdkException if the endpoint refuses (reported as a {@link
   *     ResourceProvisioningException} naming the resource)
   * @throws ResourceProvisioningException if a property cannot be applied
   */
  abstract ProvisionedResource create(
      String logicalId, String name, Map<String, Object> properties);
}
