package dev.derive.infra.local.resources;

import java.util.Map;

/**
 * A resource that exists on the AWS endpoint (or, for functions and APIs, in the local cloud).
 *
 * @param logicalId the template's logical id
 * @param type the CloudFormation type, e.g. {@code AWS::SQS::Queue}
 * @param reference what {@code Ref} returns (a queue's URL; a bucket's, table's or function's name)
 * @param attributes what {@code Fn::GetAtt} returns, by attribute name
 */
public record ProvisionedResource(
    String logicalId, String type, String reference, Map<String, String> attributes) {}
