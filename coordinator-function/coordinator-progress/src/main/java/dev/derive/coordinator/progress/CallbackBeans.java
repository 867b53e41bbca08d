package dev.derive.coordinator.progress;

import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorFactory;
import dev.derive.coordinator.completion.CallbackRetries;
import dev.derive.coordinator.completion.CallbackSender;
import dev.derive.coordinator.config.CoordinatorSettings;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The beans of the callback function ({@link CallbacksHandler}), made on first use, so the other
 * functions of this artifact never read the callback signing key.
 */
public class CallbackBeans {

  /**
   * The signed-POST sender.
   *
   * @throws dev.derive.coordinator.config.MissingSettingException without a signing key
   */
  @Produces
  @Singleton
  CallbackSender callbackSender(CoordinatorSettings settings, CoordinatorClients clients) {
    return CoordinatorFactory.callbackSender(settings, clients);
  }

  /** The pauses between attempts. */
  @Produces
  @Singleton
  CallbackRetries callbackRetries(CoordinatorSettings settings) {
    return CoordinatorFactory.callbackRetries(settings);
  }

  /** The SQS client that sets a failed delivery's pause. */
  @Produces
  @Singleton
  SqsClient callbackSqs(CoordinatorClients clients) {
    return clients.sqs();
  }
}
