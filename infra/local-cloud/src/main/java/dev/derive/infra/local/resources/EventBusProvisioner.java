package dev.derive.infra.local.resources;

import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.ResourceAlreadyExistsException;

/**
 * {@code AWS::Events::EventBus}: honours {@code Name} (required by CloudFormation; the default
 * {@code <stack>-<logicalId>} here) and {@code Description}. An existing bus is kept. {@code Ref}
 * is the bus name (as CloudFormation's); attributes {@code Arn} and {@code Name}.
 */
public final class EventBusProvisioner implements ResourceProvisioner {
  private final EventBridgeClient events;
  private final String stackName;

  /** Creates buses with {@code events}; {@code stackName} prefixes default names. */
  public EventBusProvisioner(EventBridgeClient events, String stackName) {
    this.events = events;
    this.stackName = stackName;
  }

  @Override
  public String type() {
    return "AWS::Events::EventBus";
  }

  @Override
  public ProvisionedResource provision(String logicalId, Map<String, Object> properties) {
    String name = String.valueOf(properties.getOrDefault("Name", stackName + "-" + logicalId));
    Object description = properties.get("Description");
    try {
      String arn;
      try {
        arn =
            events
                .createEventBus(
                    b -> b.name(name).description(description == null ? null : "" + description))
                .eventBusArn();
      } catch (ResourceAlreadyExistsException exists) {
        arn = events.describeEventBus(b -> b.name(name)).arn();
      }
      return new ProvisionedResource(logicalId, type(), name, Map.of("Arn", arn, "Name", name));
    } catch (SdkException e) {
      throw new ResourceProvisioningException(
          "cannot create event bus " + name + " (" + logicalId + ")", e);
    }
  }
}
