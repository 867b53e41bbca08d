package dev.derive.worker.markup;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the markup worker: its {@link MarkupTransformer}, the one {@code StepTransformer}
 * bean the runtime's shared wiring ({@code dev.derive.worker.runtime.cdi.WorkerBeans}: SDK clients,
 * settings, batch processor) and SnapStart priming run. Settings come from {@code
 * application.properties}, which maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class MarkupWorkerProducers {

  /**
   * The transformer; {@code derive.markup.max-output-bytes} is the largest PDF output, in bytes.
   */
  @Produces
  @Singleton
  MarkupTransformer markupTransformer(
      @ConfigProperty(name = "derive.markup.max-output-bytes") long maxOutputBytes) {
    return new MarkupTransformer(maxOutputBytes);
  }
}
