package dev.derive.coordinator.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.JobView;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.preset.PresetCatalogue;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.Violation;
import dev.derive.protocol.JobStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way into Derive for a derivative request, whichever entry point received it (a JSON body,
 * an upload's preset, an image URL): preset expansion, validation, {@link DerivativeService#submit}
 * (cache, claim, dispatch), the request's callback, and the wait for its job's end, answered as one
 * {@link DerivativeAnswer}. A callback is registered once the request is answered, before any wait,
 * so every accepted request is called back once whichever way it was answered (cache hit, new job,
 * joined job, a failure met at once); a request refused before it names a derivative (400, 404,
 * 413, 415, 422 without a job, 503) is not: its answer is the whole story ({@code
 * docs/completion-events.md}).
 */
public final class FrontDoor {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ECHOED = List.of("source", "preset", "target", "steps");

  private final PresetCatalogue presets;
  private final RequestValidator validator;
  private final DerivativeService service;
  private final Optional<CallbackRegistrar> callbacks;

  /**
   * @param callbacks empty when the deployment has no callback queue: a callback is then refused
   */
  public FrontDoor(
      PresetCatalogue presets,
      RequestValidator validator,
      DerivativeService service,
      Optional<CallbackRegistrar> callbacks) {
    this.presets = presets;
    this.validator = validator;
    this.service = service;
    this.callbacks = callbacks;
  }

  /**
   * Answers {@code ask}.
   *
   * @throws dev.derive.coordinator.CoordinatorException when the request is refused before it names
   *     a job: invalid (a callback included, where callbacks are not configured), a missing, too
   *     large or unsupported source, no conversion; {@link
   *     dev.derive.coordinator.dispatch.DispatchFailedException} if its first step could not be
   *     queued
   */
  public DerivativeAnswer answer(DerivativeAsk ask) {
    return switch (ask) {
      case DerivativeAsk.Json json -> {
        DerivativeRequest request = validator.validate(presets.current().expand(json.body()));
        Duration wait = Duration.ofSeconds(request.waitSeconds());
        yield answer(
            request,
            json.traceId(),
            wait.isPositive() ? Optional.of(wait) : Optional.empty(),
            Optional.ofNullable(request.callback()).map(url -> new Callback(url, json.body())));
      }
      case DerivativeAsk.Preset preset -> {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("source").put("key", preset.sourceKey());
        body.put("preset", preset.preset());
        yield answer(
            validator.validate(presets.current().expand(body)),
            preset.traceId(),
            Optional.empty(),
            Optional.empty());
      }
      case DerivativeAsk.Url url ->
          answer(
              validator.validate(
                  url.url().requestBody(presets.current(), url.autoMediaType(), url.hintedDpr())),
              url.traceId(),
              Optional.of(url.maxWait()),
              Optional.empty());
    };
  }

  /** A request's callback: where, and the body it came with (echoed to the receiver). */
  private record Callback(String url, JsonNode body) {}

  private DerivativeAnswer answer(
      DerivativeRequest request, String traceId, Optional<Duration> wait, Optional<Callback> call) {
    Optional<CallbackRegistrar> registrar = call.map(c -> registrar());
    Submission submission;
    try {
      submission = service.submit(request, traceId);
    } catch (JobFailedException failed) {
      registrar.ifPresent(r -> r.register(failed.jobId(), false, call.get().url(), echo(call)));
      return DerivativeAnswer.Failed.of(failed);
    }
    Submission submitted = submission;
    registrar.ifPresent(
        r -> r.register(submitted.jobId(), submitted.isReady(), call.get().url(), echo(call)));
    if (submission.isReady()) {
      return new DerivativeAnswer.Cached(submission);
    }
    if (wait.isEmpty()) {
      return new DerivativeAnswer.Running(submission);
    }
    Optional<JobView> ended =
        service.awaitEnd(submission.jobId(), wait.get(), PollSchedule.WAITING_REQUEST);
    if (ended.isEmpty()) {
      return new DerivativeAnswer.Running(submission);
    }
    JobView view = ended.get();
    return view.status() == JobStatus.FAILED
        ? new DerivativeAnswer.Failed(
            view.id(), view.error(), Optional.ofNullable(view.retryAfter()))
        : new DerivativeAnswer.Made(submission, view);
  }

  private CallbackRegistrar registrar() {
    return callbacks.orElseThrow(
        () ->
            new InvalidRequestException(
                List.of(
                    new Violation(
                        "/callback", "callbacks are not configured on this deployment"))));
  }

  /** What the request asked for, as sent: source, and preset, target or steps. */
  private static Map<String, Object> echo(Optional<Callback> call) {
    JsonNode body = call.map(Callback::body).orElse(null);
    Map<String, Object> echo = new LinkedHashMap<>();
    for (String member : ECHOED) {
      if (body != null && body.hasNonNull(member)) {
        echo.put(member, JSON.convertValue(body.get(member), Object.class));
      }
    }
    return echo;
  }
}
