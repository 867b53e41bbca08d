package dev.derive.coordinator.aws;

import dev.derive.coordinator.claim.LostClaimWatch;
import dev.derive.coordinator.completion.CallbackQueue;
import dev.derive.coordinator.completion.CallbackRegistrar;
import dev.derive.coordinator.completion.CallbackRetries;
import dev.derive.coordinator.completion.CallbackSender;
import dev.derive.coordinator.completion.CompletionNotifier;
import dev.derive.coordinator.completion.CompletionOutbox;
import dev.derive.coordinator.completion.CompletionPublishException;
import dev.derive.coordinator.completion.CompletionPublisher;
import dev.derive.coordinator.config.CoordinatorConfig;
import dev.derive.coordinator.config.MissingSettingException;
import dev.derive.coordinator.url.SigningKeySource;
import dev.derive.coordinator.url.UrlSigningKeys;
import dev.derive.coordinator.validate.CallbackUrlPolicy;
import jakarta.enterprise.context.Dependent;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The composition root's parts for job ends: the completion outbox, events and callbacks ({@link
 * CoordinatorProducers} has the rest).
 */
@Dependent
public class CallbackProducers {
  private static final System.Logger LOG = System.getLogger(CallbackProducers.class.getName());

  /** How long the callback signing key read from its secret is used before it is read again. */
  public static final Duration CALLBACK_KEYS_TTL = Duration.ofSeconds(300);

  /** The completions waiting to be announced, kept on the job records ({@code JOBS_TABLE}). */
  @Produces
  @Singleton
  public CompletionOutbox outbox(CoordinatorConfig config, CoordinatorClients clients) {
    return new DynamoDbCompletionOutbox(clients.dynamoDb(), config.jobsTable());
  }

  /**
   * Publishes job ends: on the EventBridge bus {@code EVENT_BUS_NAME} and to the callback queue
   * {@code CALLBACK_QUEUE_URL}. Without a bus the event is only logged; with neither, nothing is
   * published (a coordinator wired for tests).
   */
  @Produces
  @Singleton
  public CompletionNotifier completionNotifier(
      CoordinatorConfig config, CoordinatorClients clients, CompletionOutbox outbox) {
    Optional<String> bus = config.callbacks().eventBus();
    Optional<CallbackQueue> callbacks = callbackQueue(config, clients);
    if (bus.isEmpty() && callbacks.isEmpty()) {
      return CompletionNotifier.disabled();
    }
    CompletionPublisher publisher =
        bus.<CompletionPublisher>map(
                name -> new EventBridgeCompletionPublisher(clients.eventBridge(), name))
            .orElse(
                event ->
                    LOG.log(
                        System.Logger.Level.INFO,
                        () ->
                            "no EVENT_BUS_NAME: completion event "
                                + event.eventId()
                                + " not published"));
    return new CompletionNotifier(
        outbox,
        publisher,
        callbacks.orElse(
            delivery -> {
              throw new CompletionPublishException(
                  "no CALLBACK_QUEUE_URL: callback " + delivery.id() + " cannot be queued", null);
            }));
  }

  /**
   * Registers the callbacks of {@code POST /v1/derivatives} requests on their jobs, or queues them
   * at once ({@link CallbackRegistrar}); empty without {@code CALLBACK_QUEUE_URL}, and then a
   * request with a callback is refused.
   */
  @Produces
  @Singleton
  public Optional<CallbackRegistrar> callbackRegistrar(
      CoordinatorConfig config,
      CoordinatorClients clients,
      CompletionOutbox outbox,
      LostClaimWatch lostClaims) {
    return callbackQueue(config, clients)
        .map(
            queue ->
                new CallbackRegistrar(
                    outbox,
                    queue,
                    config.derivativesBucket(),
                    Clock.systemUTC(),
                    () -> UUID.randomUUID().toString(),
                    lostClaims));
  }

  /**
   * Sends callbacks, signed with the key in the Secrets Manager secret {@code
   * CALLBACK_SIGNING_SECRET} (re-read every 300 s), else the hex key(s) in {@code
   * CALLBACK_SIGNING_KEY} (local work).
   *
   * @throws MissingSettingException if neither is set
   */
  @Produces
  @Singleton
  public CallbackSender callbackSender(
      CoordinatorConfig config, CoordinatorClients clients, CallbackUrlPolicy policy) {
    CoordinatorConfig.Callbacks callbacks = config.callbacks();
    SigningKeySource keys =
        callbacks.signingSecret().isPresent()
            ? SecretsManagerSigningKeys.fromSecret(
                clients.secretsManager(),
                callbacks.signingSecret().get(),
                CALLBACK_KEYS_TTL,
                Clock.systemUTC())
            : SigningKeySource.fixed(
                UrlSigningKeys.parse(
                    callbacks
                        .signingKey()
                        .orElseThrow(
                            () ->
                                new MissingSettingException(
                                    "CALLBACK_SIGNING_SECRET or CALLBACK_SIGNING_KEY"))));
    return new CallbackSender(keys, policy, InetAddress::getAllByName, Clock.systemUTC());
  }

  /** When failed callbacks are tried again ({@code CALLBACK_RETRY_BASE_SECONDS}). */
  @Produces
  @Singleton
  public CallbackRetries callbackRetries(CoordinatorConfig config) {
    return new CallbackRetries(config.callbacks().retryBase());
  }

  /** The SQS client the callback function sets a failed delivery's pause with. */
  @Produces
  @Singleton
  public SqsClient sqs(CoordinatorClients clients) {
    return clients.sqs();
  }

  private static Optional<CallbackQueue> callbackQueue(
      CoordinatorConfig config, CoordinatorClients clients) {
    return config.callbacks().queueUrl().map(url -> new SqsCallbackQueue(clients.sqs(), url));
  }
}
