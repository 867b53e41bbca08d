package dev.derive.infra.local.resources;

import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;
import software.amazon.awssdk.services.s3.model.BucketVersioningStatus;
import software.amazon.awssdk.services.s3.model.EventBridgeConfiguration;

/**
 * {@code AWS::S3::Bucket}: honours {@code BucketName} (default {@code <stack>-<logicalid>} in lower
 * case) and {@code NotificationConfiguration.EventBridgeConfiguration} ({@code EventBridgeEnabled:
 * true} sends the bucket's object events to the default event bus, where the template's {@code
 * AWS::Events::Rule}s match them). Other notification configurations (queue, topic, Lambda) are
 * refused rather than skipped silently, and {@code VersioningConfiguration} (each write a new
 * version, as in S3). Public-access, encryption and lifecycle settings have no local effect and are
 * not applied. {@code Ref} is the bucket name; attributes {@code Arn}, {@code DomainName}, {@code
 * RegionalDomainName}.
 */
public final class BucketProvisioner extends NamedResourceProvisioner {
  private final S3Client s3;

  /** Creates buckets with {@code s3}; {@code stackName} prefixes default names. */
  public BucketProvisioner(S3Client s3, String stackName) {
    super("AWS::S3::Bucket", "BucketName", "bucket", stackName);
    this.s3 = s3;
  }

  @Override
  UnaryOperator<String> defaultName(Map<String, Object> properties) {
    return name -> name.toLowerCase(Locale.ROOT);
  }

  @Override
  ProvisionedResource create(String logicalId, String name, Map<String, Object> properties) {
    try {
      s3.createBucket(b -> b.bucket(name));
    } catch (BucketAlreadyOwnedByYouException exists) {
      // idempotent
    }
    applyVersioning(name, properties.get("VersioningConfiguration"));
    applyNotifications(logicalId, name, properties.get("NotificationConfiguration"));
    return new ProvisionedResource(
        logicalId,
        type(),
        name,
        Map.of(
            "Arn",
            "arn:aws:s3:::" + name,
            "DomainName",
            name + ".s3.amazonaws.com",
            "RegionalDomainName",
            name + ".s3." + s3.serviceClientConfiguration().region().id() + ".amazonaws.com"));
  }

  /**
   * {@code VersioningConfiguration.Status: Enabled} (or {@code Suspended}): as in S3, every write
   * is a new version with its own id, which sources are identified by (docs/image-urls.md).
   */
  private void applyVersioning(String name, Object configuration) {
    if (configuration instanceof Map<?, ?> versioning && versioning.get("Status") != null) {
      BucketVersioningStatus status =
          BucketVersioningStatus.fromValue(String.valueOf(versioning.get("Status")));
      s3.putBucketVersioning(b -> b.bucket(name).versioningConfiguration(v -> v.status(status)));
    }
  }

  private void applyNotifications(String logicalId, String name, Object configuration) {
    if (!(configuration instanceof Map<?, ?> notifications)) {
      return;
    }
    for (Object kind : notifications.keySet()) {
      if (!"EventBridgeConfiguration".equals(kind)) {
        throw new ResourceProvisioningException(
            logicalId
                + ".NotificationConfiguration."
                + kind
                + " is not supported by the local cloud (only EventBridgeConfiguration is)");
      }
    }
    boolean enabled =
        notifications.get("EventBridgeConfiguration") instanceof Map<?, ?> eventBridge
            && "true".equalsIgnoreCase(String.valueOf(eventBridge.get("EventBridgeEnabled")));
    try {
      s3.putBucketNotificationConfiguration(
          b ->
              b.bucket(name)
                  .notificationConfiguration(
                      n -> {
                        if (enabled) {
                          n.eventBridgeConfiguration(EventBridgeConfiguration.builder().build());
                        }
                      }));
    } catch (SdkException e) {
      throw new ResourceProvisioningException(
          "cannot configure the notifications of bucket " + name + " (" + logicalId + ")", e);
    }
  }
}
