package dev.derive.coordinator.api;

import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeService;
import dev.derive.coordinator.service.PollSchedule;
import dev.derive.coordinator.storage.PresignedDownload;
import dev.derive.coordinator.url.ForbiddenUrlException;
import dev.derive.coordinator.url.FormatNegotiation;
import dev.derive.coordinator.url.ImageUrl;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.protocol.JobStatus;
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
 *       presigned download, {@code Cache-Control: public, max-age} a quarter of the download URL's
 *       remaining lifetime, so browsers and CDNs keep the redirect only while it works;
 *   <li>still running → {@code 503} problem+json with {@code Retry-After} (RFC 9110 section
 *       10.2.3);
 *   <li>failed → its problem (422, as for {@code POST /v1/derivatives}); invalid options → 400;
 *       unsigned, wrongly signed or expired → 403;
 *   <li>{@code f:auto} answers carry {@code Vary: Accept} (RFC 9110 section 12.5.5).
 * </ul>
 */
@Path("/v1/{signature}/{path: .+}")
public class ImageUrlResource {
  /** Seconds a client should wait before asking again for a derivative still being made. */
  static final int RETRY_AFTER_SECONDS = 2;

  private final RequestValidator validator;
  private final DerivativeService service;
  private final PresetCatalogue presets;
  private final SigningKeySource keys;
  private final Duration wait;
  private final Clock clock = Clock.systemUTC();

  ImageUrlResource(
      RequestValidator validator,
      DerivativeService service,
      PresetCatalogue presets,
      SigningKeySource keys,
      @ConfigProperty(name = "IMAGE_URL_WAIT_SECONDS", defaultValue = "5") int waitSeconds) {
    this.validator = validator;
    this.service = service;
    this.presets = presets;
    this.keys = keys;
    this.wait = Duration.ofSeconds(Math.min(waitSeconds, RequestValidator.MAX_WAIT_SECONDS));
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
    ImageUrl url = ImageUrl.parse(raw.substring("/v1".length()));
    try {
      url.verify(keys.current(), clock.instant().getEpochSecond());
    } catch (ForbiddenUrlException e) {
      return noStore(Problems.of(e.kind(), "Forbidden", 403, e.getMessage()));
    }
    boolean negotiated = url.autoFormat();
    try {
      Response response = answer(url, FormatNegotiation.pick(accept));
      return negotiated ? vary(response) : response;
    } catch (JobFailedException e) {
      return negotiated ? vary(Problems.of(e)) : Problems.of(e);
    }
  }

  private Response answer(ImageUrl url, String autoMediaType) {
    Submission submission =
        service.submit(
            validator.validate(url.requestBody(presets.current(), autoMediaType)),
            RequestTelemetry.traceId());
    if (submission.isReady()) {
      return found(submission.download());
    }
    Optional<JobView> ended =
        service.awaitEnd(submission.jobId(), wait, PollSchedule.WAITING_REQUEST);
    if (ended.isPresent() && ended.get().status() == JobStatus.SUCCEEDED) {
      return found(ended.get().download());
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

  private Response found(PresignedDownload download) {
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
