package dev.derive.worker.image;

/**
 * One step of the image pipeline ({@link VipsPipeline}): reads the step's recipe and the current
 * image from the {@link PipelineContext} and replaces the image with its result, as a stage of
 * imgproxy's {@code processing/} pipeline does. A stage with nothing to do leaves the image as it
 * is.
 */
interface Stage {
  /**
   * Applies this stage to {@code context}'s image.
   *
   * @throws dev.derive.worker.libvips.VipsException if libvips refuses an operation (the pipeline
   *     reports it as the input's failure)
   */
  void apply(PipelineContext context);
}
