package dev.derive.coordinator.progress;

import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorFactory;
import dev.derive.coordinator.config.CoordinatorSettings;
import dev.derive.coordinator.lifecycle.JobProgress;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;

/**
 * Makes the framework-free progress logic a CDI bean. Settings are read from Quarkus config by the
 * variable names {@code template.yaml} uses, so environment variables override {@code
 * application.properties}.
 */
public class ProgressBeans {

  /** The coordinator's settings. */
  @Produces
  @Singleton
  CoordinatorSettings settings(Config config) {
    return CoordinatorSettings.from(name -> config.getOptionalValue(name, String.class));
  }

  /**
   * The function's one client per AWS service, shared by every part of the three functions this
   * artifact serves (progress, upload events, callbacks).
   */
  @Produces
  @Singleton
  CoordinatorClients clients(CoordinatorSettings settings) {
    return new CoordinatorClients(settings.s3PathStyle());
  }

  /** The lifecycle that applies step results and dead letters, wired onto DynamoDB and SQS. */
  @Produces
  @Singleton
  JobProgress lifecycle(CoordinatorSettings settings, CoordinatorClients clients) {
    return CoordinatorFactory.progressLifecycle(settings, clients);
  }
}
