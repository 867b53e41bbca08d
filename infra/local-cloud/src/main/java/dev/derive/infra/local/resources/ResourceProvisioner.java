package dev.derive.infra.local.resources;

import java.util.Map;

/** Creates one CloudFormation resource type on the AWS endpoint; creating twice is harmless. */
public interface ResourceProvisioner {

  /** The CloudFormation type handled, e.g. {@code AWS::S3::Bucket}. */
  String type();

  /**
   * Creates the resource, or brings an existing one of the same name to the given properties.
   *
   * @param logicalId the template's logical id (used for a default physical name)
   * @param properties the resource's {@code Properties}, intrinsics already evaluated
   * @throws ResourceProvisioningException if the endpoint refuses
   */
  ProvisionedResource provision(String logicalId, Map<String, Object> properties);
}
