package dev.derive.coordinator.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.derive.coordinator.CoordinatorException;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.service.DerivativeAnswer;
import dev.derive.coordinator.service.DerivativeAsk;
import dev.derive.coordinator.service.FrontDoor;
import dev.derive.coordinator.url.DerivativeCdn;
import dev.derive.coordinator.url.ForbiddenUrlException;
import dev.derive.coordinator.url.ImageUrl;
import dev.derive.coordinator.url.ImageUrlFallbacks;
import dev.derive.coordinator.url.Picture;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlOptions;
import dev.derive.coordinator.validate.RequestValidator;
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
 *       10.2.3); or, unless the client asks for JSON ({@link ImageUrlFallbacks#asksForJson}), a
 *       {@code 200} placeholder ({@link ImageUrlFallbacks#placeholder}), {@code no-store}, marked
 *       {@value #PLACEHOLDER_HEADER};
 *   <li>failed → its problem (422, as for {@code POST /v1/derivatives}; 503 with {@code
 *       Retry-After} while a retryable failure backs off), or the fallback image with the problem's
 *       status and its type in {@value #PROBLEM_TYPE_HEADER}; invalid options → 400; a missing
 *       source → 404; each of these {@code no-store}, like the 503 and the pictures; unsigned,
 *       wrongly signed, expired, or signed for a preset that has changed since → 403, cacheable for
 *       {@value #FORBIDDEN_MAX_AGE_SECONDS} s;
 *   <li>{@code f:auto} answers carry {@code Vary: Accept} (RFC 9110 section 12.5.5), problems
 *       included.
 * </ul>
 */
// Over 300 lines because its five answers' cache headers sit side by side.
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

  private final FrontDoor door;
  private final PresetCatalogue presets;
  private final SigningKeySource keys;
  private final UrlOptions options;
  private final Duration wait;
  private final Optional<DerivativeCdn> cdn;
  private final ImageUrlFallbacks fallbacks;
  private final boolean clientHints;
  private final Clock clock = Clock.systemUTC();
  private final String rootPath;

  private static final String PREFIX = "/v1/";

  /**
   * Marks an answer that is a placeholder of a derivative still being made: {@code thumbhash}
   * (drawn from the source's ThumbHash) or {@code fallback} (the deployment's fallback image).
   */
  static final String PLACEHOLDER_HEADER = "Derive-Placeholder";

  /**
   * The device pixel ratio client hints (RFC 8942; {@code Sec-CH-DPR} from the W3C's Client Hints
   * for responsive images, and its older spelling {@code DPR}), read when {@code
   * IMAGE_URL_CLIENT_HINTS} is {@code true} for a URL without {@code dpr:} ({@link
   * UrlOptions#clientHintDpr}).
   */
  static final String SEC_CH_DPR = "Sec-CH-DPR";

  static final String DPR = "DPR";

  /** The problem type a fallback image stands in for (the type of the problem+json answer). */
  static final String PROBLEM_TYPE_HEADER = "Derive-Problem-Type";

  ImageUrlResource(
      FrontDoor door,
      PresetCatalogue presets,
      SigningKeySource keys,
      UrlOptions options,
      ImageUrlFallbacks fallbacks,
      CoordinatorConfig config) {
    String rootPath = config.function().rootPath().orElse("/");
    this.rootPath = rootPath.endsWith("/") ? rootPath : rootPath + "/";
    this.door = door;
    this.presets = presets;
    this.keys = keys;
    this.options = options;
    this.fallbacks = fallbacks;
    this.clientHints = config.imageUrls().clientHints();
    this.wait =
        Duration.ofSeconds(
            Math.min(config.imageUrls().missWait().toSeconds(), RequestValidator.MAX_WAIT_SECONDS));
    this.cdn = DerivativeCdn.of(config.imageUrls().cdn());
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
  @Parameter(
      name = SEC_CH_DPR,
      in = ParameterIn.HEADER,
      description =
          "Device pixel ratio client hint, read when the deployment reads client hints and the URL"
              + " names no dpr: (rounded up to a multiple of 0.5, at most 4)")
  @Parameter(name = DPR, in = ParameterIn.HEADER, description = "The older spelling of Sec-CH-DPR")
  @APIResponse(
      responseCode = "200",
      description =
          "A placeholder (Derive-Placeholder) while the derivative is still being made, unless"
              + " Accept asks for JSON")
  @APIResponse(responseCode = "302", description = "Found: Location is the derivative")
  @APIResponse(responseCode = "400", description = "Invalid options (problem+json)")
  @APIResponse(responseCode = "403", description = "Unsigned, wrongly signed or expired")
  @APIResponse(responseCode = "422", description = "The derivative failed or cannot be made")
  @APIResponse(responseCode = "503", description = "Still being made; retry after Retry-After")
  public Response get(
      @Context HttpServerRequest request,
      @HeaderParam(HttpHeaders.ACCEPT) List<String> accepts,
      @HeaderParam(SEC_CH_DPR) String secChDpr,
      @HeaderParam(DPR) String dpr) {
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
    } catch (CoordinatorException e) {
      return noStore(Problems.of(e)); // a URL that is no image URL (400), or an unknown preset
    }
    boolean negotiated = url.autoFormat();
    boolean pictures = !ImageUrlFallbacks.asksForJson(accept);
    // the client hints count only when the deployment reads them and the URL names no dpr: itself
    boolean hinted = clientHints && !url.namesDpr();
    Optional<String> hint =
        hinted ? UrlOptions.clientHintDpr(secChDpr != null ? secChDpr : dpr) : Optional.empty();
    try {
      Response response = answer(url, options.pick(accept), pictures, hint);
      // a placeholder depends on Accept (JSON asked for: the problem)
      boolean placeholder = response.getHeaderString(PLACEHOLDER_HEADER) != null;
      return vary(response, negotiated || placeholder, hinted);
    } catch (CoordinatorException e) {
      Optional<Response> fallback = pictures ? fallback(e) : Optional.empty();
      if (fallback.isPresent()) {
        return vary(fallback.get(), true, hinted); // a client asking for JSON gets the problem
      }
      // the answer depends on Accept for a failure too (another format may have another outcome);
      // never stored, as the pictures standing for it and the 503 are not
      return vary(noStore(Problems.of(e)), negotiated, hinted);
    }
  }

  /**
   * The fallback image in place of the problem of {@code e}, with its status, its type in {@value
   * #PROBLEM_TYPE_HEADER} and its {@code Retry-After}, when the deployment has one and the problem
   * is the derivative's (it failed, its source is missing or unreadable, it could not be queued),
   * not the URL's own (400 invalid options): a broken image is what an {@code <img>} would show.
   */
  private Optional<Response> fallback(CoordinatorException e) {
    Response problem = Problems.of(e);
    if (problem.getStatus() == 400 || !(problem.getEntity() instanceof Problem described)) {
      return Optional.empty();
    }
    return fallbacks
        .failed()
        .map(
            picture -> {
              Response.ResponseBuilder answer =
                  picture(picture, problem.getStatus())
                      .header(PROBLEM_TYPE_HEADER, described.type());
              Object retry = problem.getHeaders().getFirst("Retry-After");
              return (retry == null ? answer : answer.header("Retry-After", retry)).build();
            });
  }

  /** A picture the API answers with itself: never stored, since it stands in for another. */
  private static Response.ResponseBuilder picture(Picture picture, int status) {
    return Response.status(status)
        .entity(picture.bytes())
        .type(picture.mediaType())
        .header("Cache-Control", "no-store");
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

  private Response answer(
      ImageUrl url, String autoMediaType, boolean pictures, Optional<String> hintedDpr) {
    DerivativeAnswer answer =
        door.answer(
            new DerivativeAsk.Url(url, autoMediaType, hintedDpr, wait, RequestTelemetry.traceId()));
    return switch (answer) {
      case DerivativeAnswer.Cached cached ->
          found(cached.jobId(), cached.submission().download(), url.expires());
      case DerivativeAnswer.Made made ->
          found(made.view().id(), made.view().download(), url.expires());
      case DerivativeAnswer.Failed failed -> throw failed.problem();
      case DerivativeAnswer.Running running -> notReady(url, running.jobId(), pictures);
    };
  }

  /** A derivative still being made: its placeholder picture, else 503 with Retry-After. */
  private Response notReady(ImageUrl url, String jobId, boolean pictures) {
    Optional<Picture> placeholder = pictures ? fallbacks.placeholder(url.key()) : Optional.empty();
    if (placeholder.isPresent()) {
      return picture(placeholder.get(), 200)
          .header(PLACEHOLDER_HEADER, placeholder.get().kind())
          .header("Retry-After", Integer.toString(RETRY_AFTER_SECONDS))
          .build();
    }
    return noStore(
        Problems.of(
            "derivative-not-ready",
            "Derivative not ready",
            503,
            "derivative "
                + jobId
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

  /**
   * {@code response} with the request headers it was chosen by in {@code Vary} (RFC 9110 section
   * 12.5.5): {@code Accept} when {@code accept}, the DPR client hints when {@code hints}.
   */
  private static Response vary(Response response, boolean accept, boolean hints) {
    List<String> names = new java.util.ArrayList<>();
    if (accept) {
      names.add(HttpHeaders.ACCEPT);
    }
    if (hints) {
      names.add(SEC_CH_DPR);
      names.add(DPR);
    }
    return names.isEmpty()
        ? response
        : Response.fromResponse(response).header("Vary", String.join(", ", names)).build();
  }
}
