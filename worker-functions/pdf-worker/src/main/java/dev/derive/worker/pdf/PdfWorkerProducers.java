package dev.derive.worker.pdf;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the pdf worker: its {@link PdfTransformer}, the one {@code StepTransformer} bean
 * the runtime's shared wiring ({@code dev.derive.worker.runtime.cdi.WorkerBeans}: SDK clients,
 * settings, batch processor) and SnapStart priming run. Settings come from {@code
 * application.properties}, which maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class PdfWorkerProducers {

  /**
   * The transformer; {@code derive.pdf.max-pixels} is the largest page rendered, in pixels (width x
   * height).
   */
  @Produces
  @Singleton
  PdfTransformer pdfTransformer(@ConfigProperty(name = "derive.pdf.max-pixels") long maxPixels) {
    return new PdfTransformer(maxPixels);
  }
}
