package dev.derive.coordinator.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
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
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
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
 *       unsigned, wrongly signed, expired, or signed for a preset that has changed since → 403,
 *       cacheable for {@value #FORBIDDEN_MAX_AGE_SECONDS} s;
 *   <li>{@code f:auto} answers carry {@code Vary: Accept} (RFC 9110 section 12.5.5), problems
 *       included.
 * </ul>
 */
@Path("/v1/{signature}/{path: .+}")
public class ImageUrlResource {
  /**
   * Where {@link ApiRoutes} reroutes every request of the image route, so that this resource, and
   * only it, answers them whatever their path; it reads the path from the event.
   */
  static final String DISPATCH_PATH = "/v1/-/image-url";

  /** Seconds a client should wait before asking again for a derivative still being made. */
  static final int RETRY_AFTER_SECONDS = 2;

  /**
   * How long browsers and the CDN keep a redirect to the CDN's copy of a derivative: an hour. The
   * CDN URL does not expire, but the derivative does ({@code DerivativeRetentionDays}, counted from
   * its making), and an expired one is made again under the same path only when its image URL is
   * asked again: an hour bounds how long a cached redirect can point at nothing.
   */
  static final int CDN_REDIRECT_MAX_AGE_SECONDS = 3600;

  /**
   * How long browsers and the CDN may keep a 403 (unsigned, wrongly signed, expired, or signed for
   * a changed preset): a minute, so the same forged or expired URL asked again and again is
   * answered at the edge, not by an invocation (CloudFront keeps an error without Cache-Control 10
   * s, its default error caching minimum TTL). Short because a URL signed with a key the API has
   * not re-read yet (SigningKeySource, 300 s) becomes valid without changing.
   */
  static final int FORBIDDEN_MAX_AGE_SECONDS = 60;

  private final RequestValidator validator;
  private final DerivativeService service;
  private final PresetCatalogue presets;
  private final SigningKeySource keys;
  private final UrlOptions options;
  private final Duration wait;
  private final Optional<DerivativeCdn> cdn;
  private final Clock clock = Clock.systemUTC();
  private final String rootPath;

  private static final String PREFIX = "/v1/";

  ImageUrlResource(
      RequestValidator validator,
      DerivativeService service,
      PresetCatalogue presets,
      SigningKeySource keys,
      UrlOptions options,
      @ConfigProperty(name = "IMAGE_URL_WAIT_SECONDS", defaultValue = "5") int waitSeconds,
      @ConfigProperty(name = "DERIVATIVES_CDN_URL") Optional<String> cdn,
      @ConfigProperty(name = "quarkus.http.root-path", defaultValue = "/") String rootPath) {
    this.rootPath = rootPath.endsWith("/") ? rootPath : rootPath + "/";
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
  @Parameter(
      name = "signature",
      in = ParameterIn.PATH,
      required = true,
      description = "HMAC-SHA256 of the rest of the path, base64url without padding")
  @Parameter(
      name = "path",
      in = ParameterIn.PATH,
      required = true,
      description =
          "options separated by '/' (rs:inside:256:256, f:webp, f:auto, q:80, pg:2, pr:thumb,"
              + " exp:<unix s>, plain ...), then the source key; f:auto picks from Accept (the"
              + " first of AVIF, WebP it names with q > 0)",
      schema = @Schema(type = SchemaType.STRING))
  @APIResponse(responseCode = "302", description = "Found: Location is the derivative")
  @APIResponse(responseCode = "400", description = "Invalid options (problem+json)")
  @APIResponse(responseCode = "403", description = "Unsigned, wrongly signed or expired")
  @APIResponse(responseCode = "422", description = "The derivative failed or cannot be made")
  @APIResponse(responseCode = "503", description = "Still being made; retry after Retry-After")
  public Response get(
      @Context HttpServerRequest request, @HeaderParam(HttpHeaders.ACCEPT) List<String> accepts) {
    // every value: the Lambda HTTP adapter splits one Accept line at its commas
    String accept = accepts == null || accepts.isEmpty() ? null : String.join(",", accepts);
    ImageUrl url;
    try {
      url =
          ImageUrl.verified(
              imagePath(request), options, keys.current(), clock.instant().getEpochSecond());
      url.requirePresetInForce(presets.current());
    } catch (ForbiddenUrlException e) {
      return Response.fromResponse(
              Problems.of(e.kind(), Problems.title(e.kind()), 403, e.getMessage()))
          .header("Cache-Control", "public, max-age=" + FORBIDDEN_MAX_AGE_SECONDS)
          .build();
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

  /**
   * The image URL's path after {@code /v1}: from the path API Gateway received ({@code
   * requestContext.http.path}, percent-decoded as API Gateway hands it over; {@link
   * ApiEntryPoint}), after the stage's root path; never the path this function's router resolved
   * (matrix parameters dropped, dot segments and escapes resolved), nor {@link #DISPATCH_PATH}.
   * Without an event (not invoked through API Gateway) the request's own path.
   */
  private String imagePath(HttpServerRequest request) {
    String raw =
        ApiRoutes.event(request)
            .map(APIGatewayV2HTTPEvent::getRequestContext)
            .map(APIGatewayV2HTTPEvent.RequestContext::getHttp)
            .map(APIGatewayV2HTTPEvent.RequestContext.Http::getPath)
            .orElse(request.path());
    if (raw.startsWith(rootPath)) {
      raw = raw.substring(rootPath.length() - 1);
    }
    if (!raw.startsWith(PREFIX)) {
      throw ImageUrl.notAnImageUrl();
    }
    return raw.substring(PREFIX.length() - 1);
  }

  private Response answer(ImageUrl url, String autoMediaType) {
    Submission submission =
        service.submit(
            validator.validate(url.requestBody(presets.current(), autoMediaType)),
            RequestTelemetry.traceId());
    if (submission.isReady()) {
      return found(submission.jobId(), submission.download(), url.expires());
    }
    Optional<JobView> ended =
        service.awaitEnd(submission.jobId(), wait, PollSchedule.WAITING_REQUEST);
    if (ended.isPresent() && ended.get().status() == JobStatus.SUCCEEDED) {
      return found(ended.get().id(), ended.get().download(), url.expires());
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

  /**
   * The {@code 302} to derivative {@code id}, cacheable for as long as its target works and never
   * past the URL's own {@code exp:} ({@code expires}, Unix seconds, or null): a browser or CDN
   * holding the redirect would otherwise serve an expired URL until its copy aged out.
   */
  private Response found(String id, PresignedDownload download, Long expires) {
    long now = clock.instant().getEpochSecond();
    URI location;
    long maxAge;
    if (cdn.isPresent()) {
      location = cdn.get().location(id, download.url());
      maxAge = CDN_REDIRECT_MAX_AGE_SECONDS;
    } else {
      location = URI.create(download.url().toString());
      maxAge = Math.max(0, download.expiresAt().getEpochSecond() - now) / 4;
    }
    if (expires != null) {
      maxAge = Math.min(maxAge, Math.max(0, expires - now));
    }
    return Response.status(Response.Status.FOUND)
        .location(location)
        .header("Cache-Control", "public, max-age=" + maxAge)
        .build();
  }

  private static Response noStore(Response response) {
    return Response.fromResponse(response).header("Cache-Control", "no-store").build();
  }

  private static Response vary(Response response) {
    return Response.fromResponse(response).header("Vary", "Accept").build();
  }
}
