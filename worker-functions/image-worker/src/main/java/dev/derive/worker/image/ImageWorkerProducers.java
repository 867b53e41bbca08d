package dev.derive.worker.image;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the image worker: its {@link ImageTransformer}, the one {@code StepTransformer}
 * bean the runtime's shared wiring ({@code dev.derive.worker.runtime.cdi.WorkerBeans}: SDK clients,
 * settings, batch processor) and SnapStart priming run. Settings come from {@code
 * application.properties}, which maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class ImageWorkerProducers {

  /**
   * The transformer; {@code derive.image.max-pixels} is the largest image decoded or produced, in
   * pixels (width x height); {@code derive.image.memory-size-mb} the function's memory size, in MB,
   * from which the memory budget of a step comes (0 when unknown: only the heap limits).
   */
  @Produces
  @Singleton
  ImageTransformer imageTransformer(
      @ConfigProperty(name = "derive.image.max-pixels") long maxPixels,
      @ConfigProperty(name = "derive.image.memory-size-mb") int memorySizeMb) {
    return ImageTransformer.forFunction(maxPixels, memorySizeMb);
  }
}
