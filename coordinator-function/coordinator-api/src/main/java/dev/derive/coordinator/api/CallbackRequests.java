package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.job.JobFailedException;
import dev.derive.coordinator.job.Submission;
import dev.derive.coordinator.validate.DerivativeRequest;
import dev.derive.coordinator.validate.InvalidRequestException;
import dev.derive.coordinator.validate.Violation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code callback} member of {@code POST /v1/derivatives}: once the request is answered, its
 * callback is registered with the {@link CallbackRegistrar}, so every accepted request is called
 * back once whatever way it was answered (cache hit, new job, joined job, a failure met at once). A
 * request refused before it names a derivative (400, 404, 413, 415, 422 without a job, 503) is not
 * called back: its answer is the whole story.
 */
final class CallbackRequests {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> ECHOED = List.of("source", "preset", "target", "steps");

  private final Optional<CallbackRegistrar> registrar;

  /**
   * @param registrar empty when the deployment has no callback queue: a callback is then refused
   */
  CallbackRequests(Optional<CallbackRegistrar> registrar) {
    this.registrar = registrar;
  }

  /**
   * Runs {@code submit} for {@code request} and registers its callback, if it has one.
   *
   * @param body the request body as sent (preset unexpanded), echoed to the receiver
   * @throws InvalidRequestException if a callback is given and callbacks are not configured
   */
  Submission submit(DerivativeRequest request, JsonNode body, Supplier<Submission> submit) {
    String url = request.callback();
    if (url == null) {
      return submit.get();
    }
    CallbackRegistrar callbacks =
        registrar.orElseThrow(
            () ->
                new InvalidRequestException(
                    List.of(
                        new Violation(
                            "/callback", "callbacks are not configured on this deployment"))));
    Submission submission;
    try {
      submission = submit.get();
    } catch (JobFailedException failed) {
      callbacks.register(failed.jobId(), false, url, echo(body));
      throw failed;
    }
    callbacks.register(submission.jobId(), submission.isReady(), url, echo(body));
    return submission;
  }

  /** What the request asked for, as sent: source, and preset, target or steps. */
  static Map<String, Object> echo(JsonNode body) {
    Map<String, Object> echo = new LinkedHashMap<>();
    for (String member : ECHOED) {
      if (body != null && body.hasNonNull(member)) {
        echo.put(member, JSON.convertValue(body.get(member), Object.class));
      }
    }
    return echo;
  }
}
