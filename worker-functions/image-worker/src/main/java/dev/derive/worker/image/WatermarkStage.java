package dev.derive.worker.image;

/**
 * The step's {@link Watermark} laid over the finished picture (after the {@link PadStage} border,
 * before the encoding), as imgproxy composes its {@code wm:} last.
 */
final class WatermarkStage implements Stage {
  @Override
  public void apply(PipelineContext context) {
    Watermark watermark = context.watermark();
    if (watermark == null) {
      return;
    }
    context.inMemory(); // the mark's placement reads the picture out of a streamed decode's order
    context.replace(watermark.over(context.vips(), context.image()));
  }
}
