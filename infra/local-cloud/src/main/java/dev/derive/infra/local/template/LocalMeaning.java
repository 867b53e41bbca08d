package dev.derive.infra.local.template;

import java.util.Map;
import java.util.Optional;

/**
 * The resource types the local cloud acknowledges but does not create, because they have no local
 * meaning: the reason is printed as one startup line per resource, so nothing is skipped silently.
 * API Gateway routes and authorizers are among them: routes are served by the local HTTP API
 * (through {@link FunctionDefinitions}), and <b>auth is not enforced locally</b>.
 */
public final class LocalMeaning {
  private static final Map<String, String> SKIPPED =
      Map.ofEntries(
          Map.entry("AWS::CloudWatch::Alarm", "alarms are not evaluated locally"),
          Map.entry(
              "AWS::CloudWatch::Dashboard",
              "no dashboard locally: ./derive up lists the EMF metrics it saw when it stops"),
          Map.entry("AWS::Logs::LogGroup", "function output is printed to the console instead"),
          Map.entry("AWS::S3::BucketPolicy", "bucket policies are not enforced locally"),
          Map.entry("AWS::SQS::QueuePolicy", "queue policies are not enforced locally"),
          Map.entry(
              "AWS::CloudFront::Distribution",
              "no CDN locally: the coordinator redirects to presigned URLs instead"),
          Map.entry(
              "AWS::CloudFront::OriginAccessControl",
              "no CDN locally: the coordinator redirects to presigned URLs instead"),
          Map.entry(
              "AWS::CloudFront::CachePolicy",
              "no CDN locally: the coordinator redirects to presigned URLs instead"),
          Map.entry(
              "AWS::CloudFront::OriginRequestPolicy",
              "no CDN locally: the coordinator redirects to presigned URLs instead"),
          Map.entry(
              "AWS::CloudFront::Function",
              "no CDN locally: the coordinator redirects to presigned URLs instead"),
          Map.entry("AWS::SNS::Topic", "alarm notifications are not sent locally"),
          Map.entry("AWS::SNS::Subscription", "alarm notifications are not sent locally"),
          Map.entry("AWS::IAM::Role", "IAM is not enforced locally"),
          Map.entry("AWS::IAM::Policy", "IAM is not enforced locally"),
          Map.entry("AWS::IAM::ManagedPolicy", "IAM is not enforced locally"),
          Map.entry("AWS::Lambda::Permission", "IAM is not enforced locally"),
          Map.entry("AWS::ApiGatewayV2::Api", "the local HTTP API stands for it"),
          Map.entry(
              "AWS::ApiGatewayV2::Stage",
              "the local HTTP API stands for it (no throttling, no access log)"),
          Map.entry(
              "AWS::ApiGatewayV2::Integration", "the local HTTP API invokes the function itself"),
          Map.entry(
              "AWS::ApiGatewayV2::Route",
              "served by the local HTTP API; auth is not enforced locally"),
          Map.entry("AWS::ApiGatewayV2::Authorizer", "auth is not enforced locally"));

  private LocalMeaning() {}

  /**
   * The startup line for a resource the local cloud skips, or empty if its type is not one it
   * skips.
   */
  public static Optional<String> skipped(Template.Resource resource, References references) {
    String reason = SKIPPED.get(resource.type());
    if (reason == null) {
      return Optional.empty();
    }
    String detail = "";
    if (resource.type().equals(FunctionDefinitions.ROUTE_TYPE)) {
      detail = " " + describeRoute(resource, references);
    }
    return Optional.of(
        resource.type() + " " + resource.logicalId() + detail + ": skipped, " + reason);
  }

  /** The line for a resource whose {@code Condition} is false. */
  public static String inactive(Template.Resource resource) {
    return resource.type()
        + " "
        + resource.logicalId()
        + ": not created, condition "
        + resource.condition()
        + " is false";
  }

  /** Whether the local cloud acknowledges and skips resources of {@code type}. */
  public static boolean isSkipped(String type) {
    return SKIPPED.containsKey(type);
  }

  private static String describeRoute(Template.Resource route, References references) {
    Object key = IntrinsicResolver.resolve(route.properties().get("RouteKey"), references);
    Object auth =
        IntrinsicResolver.resolve(route.properties().get("AuthorizationType"), references);
    return "(" + key + ", requires " + (auth == null ? "NONE" : auth) + " on AWS)";
  }
}
