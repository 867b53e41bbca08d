package dev.derive.infra.local.resources;

import java.util.Map;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.ResourceAlreadyExistsException;

/**
 * {@code AWS::Events::EventBus}: honours {@code Name} (required by CloudFormation; the default
 * {@code <stack>-<logicalId>} here) and {@code Description}. An existing bus is kept. {@code Ref}
 * is the bus name (as CloudFormation's); attributes {@code Arn} and {@code Name}.
 */
public final class EventBusProvisioner extends NamedResourceProvisioner {
  private final EventBridgeClient events;

  /** Creates buses with {@code events}; {@code stackName} prefixes default names. */
  public EventBusProvisioner(EventBridgeClient events, String stackName) {
    super("AWS::Events::EventBus", "Name", "event bus", stackName);
    this.events = events;
  }

  @Override
  ProvisionedResource create(String logicalId, String name, Map<String, Object> properties) {
    Object description = properties.get("Description");
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
  }
}
