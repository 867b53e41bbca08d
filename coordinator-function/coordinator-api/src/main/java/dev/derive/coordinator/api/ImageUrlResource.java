package dev.derive.coordinator.api;

import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.PollSchedule;
import dev.derive.coordinator.url.DerivativeCdn;
import dev.derive.coordinator.url.ForbiddenUrlException;
import dev.derive.coordinator.url.ImageUrl;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlOptions;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
import dev.derive.storage.PresignedDownload;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code GET /v1/{signature}/{options}/{source key}}: image URLs for {@code <img>} tags, in the
 * style of imgproxy (grammar and signing: {@link ImageUrl}, docs/image-urls.md). The signature is
 * checked before anything else; then the URL is canonicalised to the JSON request it stands for and
 * submitted like one.
 *
 * <ul>
 *   <li>made (or made within {@code IMAGE_URL_WAIT_SECONDS}, default 5) → {@code 302} to the
 *       derivative: with {@code DERIVATIVES_CDN_URL} set (the CloudFront distribution of
 *       template.yaml) to its path there, {@code Cache-Control: public, max-age=}{@value
 *       #CDN_REDIRECT_MAX_AGE_SECONDS}; otherwise to the presigned download, {@code max-age} a
 *       quarter of the download URL's remaining lifetime, so browsers and CDNs keep the redirect
 *       only while it works;
 *   <li>still running → {@code 503} problem+json with {@code Retry-After} (RFC 9110 section
 *       10.2.3);
 *   <li>failed → its problem (422, as for {@code POST /v1/derivatives}); invalid options → 400;
 *       unsigned, wrongly signed or expired → 403;
 *   <li>{@code f:auto} answers carry {@code Vary: Accept} (RFC 9110 section 12.5.5), problems
 *       included.
 * </ul>
 */
@Path("/v1/{signature}/{path: .+}")
public class ImageUrlResource {
  /** Seconds a client should wait before asking again for a derivative still being made. */
  static final int RETRY_AFTER_SECONDS = 2;

  /**
   * How long browsers and the CDN keep a redirect to the CDN's copy of a derivative: an hour. The
   * CDN URL does not expire, but the derivative does ({@code DerivativeRetentionDays}, counted from
   * its making), and an expired one is made again under the same path only when its image URL is
   * asked again: an hour bounds how long a cached redirect can point at nothing.
   */
  static final int CDN_REDIRECT_MAX_AGE_SECONDS = 3600;

  private final RequestValidator validator;
  private final DerivativeService service;
  private final PresetCatalogue presets;
  private final SigningKeySource keys;
  private final UrlOptions options;
  private final Duration wait;
  private final Optional<DerivativeCdn> cdn;
  private final Clock clock = Clock.systemUTC();

  ImageUrlResource(
      RequestValidator validator,
      DerivativeService service,
      PresetCatalogue presets,
      SigningKeySource keys,
      UrlOptions options,
      @ConfigProperty(name = "IMAGE_URL_WAIT_SECONDS", defaultValue = "5") int waitSeconds,
      @ConfigProperty(name = "DERIVATIVES_CDN_URL") Optional<String> cdn) {
    this.validator = validator;
    this.service = service;
    this.presets = presets;
    this.keys = keys;
    this.options = options;
    this.wait = Duration.ofSeconds(Math.min(waitSeconds, RequestValidator.MAX_WAIT_SECONDS));
    this.cdn = DerivativeCdn.of(cdn);
  }

  /** Redirects to the derivative the signed URL names, making it first if need be. */
  @GET
  @Operation(summary = "An image URL: redirect to the derivative its signed options name")
  @APIResponse(responseCode = "302", description = "Found: Location is the derivative")
  @APIResponse(responseCode = "400", description = "Invalid options (problem+json)")
  @APIResponse(responseCode = "403", description = "Unsigned, wrongly signed or expired")
  @APIResponse(responseCode = "422", description = "The derivative failed or cannot be made")
  @APIResponse(responseCode = "503", description = "Still being made; retry after Retry-After")
  public Response get(@Context UriInfo uri, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
    String raw = uri.getRequestUri().getRawPath();
    ImageUrl url = ImageUrl.parse(raw.substring("/v1".length()), options);
    try {
      url.verify(keys.current(), clock.instant().getEpochSecond());
    } catch (ForbiddenUrlException e) {
      return noStore(Problems.of(e.kind(), "Forbidden", 403, e.getMessage()));
    }
    boolean negotiated = url.autoFormat();
    try {
      Response response = answer(url, options.pick(accept));
      return negotiated ? vary(response) : response;
    } catch (CoordinatorException e) {
      // the answer depends on Accept for a failure too (another format may have another outcome)
      if (!negotiated) {
        throw e;
      }
      return vary(Problems.of(e));
    }
  }

  private Response answer(ImageUrl url, String autoMediaType) {
    Submission submission =
        service.submit(
            validator.validate(url.requestBody(presets.current(), autoMediaType)),
            RequestTelemetry.traceId());
    if (submission.isReady()) {
      return found(submission.jobId(), submission.download());
    }
    Optional<JobView> ended =
        service.awaitEnd(submission.jobId(), wait, PollSchedule.WAITING_REQUEST);
    if (ended.isPresent() && ended.get().status() == JobStatus.SUCCEEDED) {
      return found(ended.get().id(), ended.get().download());
    }
    if (ended.isPresent() && ended.get().status() == JobStatus.FAILED) {
      throw new JobFailedException(ended.get().id(), ended.get().error());
    }
    return noStore(
        Problems.of(
            "derivative-not-ready",
            "Derivative not ready",
            503,
            "derivative "
                + submission.jobId()
                + " is still being made; ask again after "
                + RETRY_AFTER_SECONDS
                + " s",
            Map.of("Retry-After", Integer.toString(RETRY_AFTER_SECONDS))));
  }

  private Response found(String id, PresignedDownload download) {
    if (cdn.isPresent()) {
      return Response.status(Response.Status.FOUND)
          .location(cdn.get().location(id, download.url()))
          .header("Cache-Control", "public, max-age=" + CDN_REDIRECT_MAX_AGE_SECONDS)
          .build();
    }
    long left = Duration.between(clock.instant(), download.expiresAt()).toSeconds();
    return Response.status(Response.Status.FOUND)
        .location(URI.create(download.url().toString()))
        .header("Cache-Control", "public, max-age=" + Math.max(0, left / 4))
        .build();
  }

  private static Response noStore(Response response) {
    return Response.fromResponse(response).header("Cache-Control", "no-store").build();
  }

  private static Response vary(Response response) {
    return Response.fromResponse(response).header("Vary", "Accept").build();
  }
}
