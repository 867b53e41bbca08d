package dev.derive.coordinator.completion;

import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import dev.derive.coordinator.validate.NetworkAddresses;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Sends one callback: an HTTP POST of the delivery's body, signed ({@link CallbackSignature}), with
 * short timeouts, no redirects followed and the response body discarded unread (never logged).
 * Before connecting, the URL is checked again by the {@link CallbackUrlPolicy} and every address
 * its host resolves to must be public ({@link NetworkAddresses}), or loopback where loopback
 * receivers are allowed (local work): Derive does not call into private networks on anyone's
 * behalf.
 */
public final class CallbackSender {
  /** Longest wait for a connection. */
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

  /** Longest wait for the response's status line, from the request's start. */
  public static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(5);

  /** The {@code User-Agent} of every callback. */
  public static final String USER_AGENT = "Derive-Callback/1";

  /** What one attempt came to. */
  public record Attempt(boolean delivered, String outcome) {}

  /** Resolves a host name to its addresses (DNS, in production). */
  @FunctionalInterface
  public interface Resolver {
    /** The addresses of {@code host}. */
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  private final HttpClient http;
  private final SigningKeySource keys;
  private final CallbackUrlPolicy policy;
  private final Resolver resolver;
  private final Clock clock;

  /**
   * @param keys the callback signing key(s), the signing key first
   */
  public CallbackSender(
      SigningKeySource keys, CallbackUrlPolicy policy, Resolver resolver, Clock clock) {
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(CONNECT_TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    this.keys = keys;
    this.policy = policy;
    this.resolver = resolver;
    this.clock = clock;
  }

  /**
   * Sends {@code delivery} once; never throws: whatever the receiver does, and a URL the client
   * cannot send to (a delivery queued before its URL was validated as now), are a failed attempt.
   */
  public Attempt send(CallbackDelivery delivery) {
    try {
      return attempt(delivery);
    } catch (RuntimeException e) {
      return new Attempt(false, "refused: " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }
  }

  private Attempt attempt(CallbackDelivery delivery) {
    Optional<String> refused = refusal(delivery.url());
    if (refused.isPresent()) {
      return new Attempt(false, "refused: " + refused.get());
    }
    long now = clock.instant().getEpochSecond();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(delivery.url()))
            .timeout(RESPONSE_TIMEOUT)
            .header("Content-Type", "application/json")
            .header("User-Agent", USER_AGENT)
            .header("Derive-Delivery-Id", delivery.id())
            .header(
                CallbackSignature.HEADER,
                CallbackSignature.header(keys.current(), now, delivery.body()))
            .POST(HttpRequest.BodyPublishers.ofString(delivery.body()))
            .build();
    try {
      int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status >= 200 && status < 300) {
        return new Attempt(true, "HTTP " + status);
      }
      return new Attempt(
          false, "HTTP " + status + (status / 100 == 3 ? " (redirects are not followed)" : ""));
    } catch (IOException e) {
      return new Attempt(false, e.getClass().getSimpleName() + ": " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Attempt(false, "interrupted");
    }
  }

  private Optional<String> refusal(String url) {
    Optional<String> problem = policy.problem(url);
    if (problem.isPresent()) {
      return problem;
    }
    String host = URI.create(url).getHost();
    try {
      for (InetAddress address : resolver.resolve(host)) {
        boolean allowed =
            !NetworkAddresses.isNonPublic(address)
                || (policy.allowsLoopback() && NetworkAddresses.isLoopback(address));
        if (!allowed) {
          return Optional.of(
              host + " resolves to a non-public address " + address.getHostAddress());
        }
      }
      return Optional.empty();
    } catch (UnknownHostException e) {
      return Optional.of("unknown host " + host);
    }
  }
}
