package dev.derive.infra.template;

import static dev.derive.infra.template.TemplateModel.list;
import static dev.derive.infra.template.TemplateModel.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.infra.local.template.Intrinsic;
import dev.derive.infra.local.template.Template;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The CloudFront distribution of {@code template.yaml} (issue 12 item 4, docs/deploy.md): image
 * URLs keyed on the path alone (and the DPR client hints when read), {@code Accept} only for
 * f:auto, derivatives from the private bucket through Origin Access Control, and the coordinator
 * told where the CDN is.
 */
class CdnTemplateTest {
  private final Template template = new TemplateModel().template;
  private final Map<String, Object> distribution =
      map(template.resource("Cdn").properties().get("DistributionConfig"));

  private Map<String, Object> cachePolicyKey(String logicalId) {
    return map(
        map(template.resource(logicalId).properties().get("CachePolicyConfig"))
            .get("ParametersInCacheKeyAndForwardedToOrigin"));
  }

  private List<Map<String, Object>> behaviours() {
    return list(distribution.get("CacheBehaviors")).stream().map(TemplateModel::map).toList();
  }

  @Test
  void imageUrlsGoToTheApiKeyedOnThePathAlone() {
    Map<String, Object> image = map(distribution.get("DefaultCacheBehavior"));
    Map<String, Object> key = cachePolicyKey("ImageUrlCachePolicy");

    assertThat(image.get("TargetOriginId")).isEqualTo("image-urls");
    assertThat(list(image.get("AllowedMethods"))).containsExactly("GET", "HEAD");
    assertThat(image.get("CachePolicyId")).isEqualTo(new Intrinsic.Ref("ImageUrlCachePolicy"));
    // the DPR client hints join the key only when the coordinator reads them (ImageUrlClientHints)
    Intrinsic.If headers = (Intrinsic.If) key.get("HeadersConfig");
    assertThat(headers.condition()).isEqualTo("ReadsClientHints");
    assertThat(list(map(headers.whenTrue()).get("Headers"))).containsExactly("Sec-CH-DPR", "DPR");
    assertThat(map(headers.whenFalse())).containsEntry("HeaderBehavior", "none");
    assertThat(map(key.get("CookiesConfig"))).containsEntry("CookieBehavior", "none");
    assertThat(map(key.get("QueryStringsConfig"))).containsEntry("QueryStringBehavior", "none");
  }

  @Test
  void onlyAutoFormatUrlsAddTheNormalisedAcceptHeader() {
    List<Map<String, Object>> auto =
        behaviours().stream()
            .filter(b -> String.valueOf(b.get("PathPattern")).contains(":auto/"))
            .toList();

    assertThat(auto)
        .extracting(b -> b.get("PathPattern"))
        .containsExactlyInAnyOrder("/v1/*/f:auto/*", "/v1/*/format:auto/*", "/v1/*/ext:auto/*");
    for (Map<String, Object> behaviour : auto) {
      assertThat(behaviour.get("CachePolicyId"))
          .isEqualTo(new Intrinsic.Ref("AutoFormatCachePolicy"));
      assertThat(map(list(behaviour.get("FunctionAssociations")).getFirst()).get("FunctionARN"))
          .isEqualTo(new Intrinsic.GetAtt("AcceptNormaliser", "FunctionMetadata.FunctionARN"));
    }
    Intrinsic.If headers =
        (Intrinsic.If)
            map(cachePolicyKey("AutoFormatCachePolicy").get("HeadersConfig")).get("Headers");
    assertThat(headers.condition()).isEqualTo("ReadsClientHints");
    assertThat(list(headers.whenTrue())).containsExactly("Accept", "Sec-CH-DPR", "DPR");
    assertThat(list(headers.whenFalse())).containsExactly("Accept");
  }

  @Test
  void derivativesComeFromTheBucketThroughOriginAccessControlForThisDistributionOnly() {
    Map<String, Object> origin =
        list(distribution.get("Origins")).stream()
            .map(TemplateModel::map)
            .filter(o -> "derivatives".equals(o.get("Id")))
            .findFirst()
            .orElseThrow();
    assertThat(origin.get("OriginAccessControlId"))
        .isEqualTo(new Intrinsic.GetAtt("CdnOriginAccessControl", "Id"));
    assertThat(behaviours())
        .filteredOn(b -> "derivatives".equals(b.get("TargetOriginId")))
        .extracting(b -> b.get("PathPattern"))
        .containsExactlyInAnyOrder("/derivatives/*", "/intermediates/*");

    String policy =
        String.valueOf(
            template.resource("DerivativesBucketPolicy").properties().get("PolicyDocument"));
    assertThat(policy).contains("cloudfront.amazonaws.com", "AWS:SourceArn", "distribution/${Cdn}");
  }

  @Test
  void theCoordinatorRedirectsToTheCdnWhenThereIsOne() {
    Map<String, Object> variables =
        map(
            map(template.resource("CoordinatorApiFunction").properties().get("Environment"))
                .get("Variables"));

    assertThat(String.valueOf(variables.get("DERIVATIVES_CDN_URL")))
        .contains("UseCdn", "https://${Cdn.DomainName}");
  }
}
