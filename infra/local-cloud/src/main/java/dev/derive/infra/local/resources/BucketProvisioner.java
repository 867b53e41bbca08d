package dev.derive.infra.local.resources;

import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.BucketAlreadyOwnedByYouException;

/**
 * {@code AWS::S3::Bucket}: honours {@code BucketName} (default {@code <stack>-<logicalid>} in lower
 * case). Public-access, encryption and lifecycle settings have no local effect and are not applied.
 * {@code Ref} is the bucket name; attributes {@code Arn}, {@code DomainName}.
 */
public final class BucketProvisioner implements ResourceProvisioner {
  private final S3Client s3;
  private final String stackName;

  /** Creates buckets with {@code s3}; {@code stackName} prefixes default names. */
  public BucketProvisioner(S3Client s3, String stackName) {
    this.s3 = s3;
    this.stackName = stackName;
  }

  @Override
  public String type() {
    return "AWS::S3::Bucket";
  }

  @Override
  public ProvisionedResource provision(String logicalId, Map<String, Object> properties) {
    String name =
        String.valueOf(
            properties.getOrDefault(
                "BucketName", (stackName + "-" + logicalId).toLowerCase(Locale.ROOT)));
    try {
      s3.createBucket(b -> b.bucket(name));
    } catch (BucketAlreadyOwnedByYouException exists) {
      // idempotent
    } catch (SdkException e) {
      throw new ResourceProvisioningException(
          "cannot create bucket " + name + " (" + logicalId + ")", e);
    }
    return new ProvisionedResource(
        logicalId,
        type(),
        name,
        Map.of("Arn", "arn:aws:s3:::" + name, "DomainName", name + ".s3.amazonaws.com"));
  }
}
