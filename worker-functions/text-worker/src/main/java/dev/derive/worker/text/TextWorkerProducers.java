package dev.derive.worker.text;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the text worker: its {@link TextTransformer}, the one {@code StepTransformer} bean
 * the runtime's shared wiring ({@code dev.derive.worker.runtime.cdi.WorkerBeans}: SDK clients,
 * settings, batch processor) and SnapStart priming run. Settings come from {@code
 * application.properties}, which maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class TextWorkerProducers {

  /** The transformer; {@code derive.text.max-text-bytes} is the largest text output, in bytes. */
  @Produces
  @Singleton
  TextTransformer textTransformer(
      @ConfigProperty(name = "derive.text.max-text-bytes") long maxTextBytes) {
    return new TextTransformer(maxTextBytes);
  }
}
