package dev.derive.coordinator.url;

import dev.derive.coordinator.plan.DerivativeFingerprint;
import java.net.URI;
import java.net.URL;
import java.util.Optional;

/**
 * Where a derivative is served from the CDN: {@code DERIVATIVES_CDN_URL} (template.yaml sets it to
 * the CloudFront distribution whose {@code /derivatives/*} and {@code /intermediates/*} behaviours
 * read the derivatives bucket through Origin Access Control) followed by the object's key.
 *
 * @param baseUrl the distribution's URL without a trailing slash, e.g. {@code
 *     https://d111111abcdef8.cloudfront.net}
 */
public record DerivativeCdn(String baseUrl) {

  /**
   * The CDN a {@code DERIVATIVES_CDN_URL} value names; empty when unset, blank, or a URL without a
   * host (the local cloud, which has no CDN, resolves template.yaml's {@code
   * https://${Cdn.DomainName}} to {@code https://}).
   *
   * @throws IllegalArgumentException if the value is not a URL
   */
  public static Optional<DerivativeCdn> of(Optional<String> setting) {
    return setting
        .map(String::trim)
        .filter(u -> !u.isEmpty())
        .filter(u -> !u.matches("[A-Za-z][A-Za-z0-9+.-]*://"))
        .map(u -> new DerivativeCdn(URI.create(u.replaceAll("/+$", "")).toString()));
  }

  /**
   * The CDN URL of derivative {@code id}, whose presigned download is {@code download}: under
   * {@code intermediates/} when the download names that key (a hit on an intermediate made by a
   * longer chain), else under {@code derivatives/}.
   */
  public URI location(String id, URL download) {
    String key =
        download.getPath().endsWith(DerivativeFingerprint.intermediateKey(id))
            ? DerivativeFingerprint.intermediateKey(id)
            : DerivativeFingerprint.objectKey(id);
    return URI.create(baseUrl + "/" + key);
  }
}
