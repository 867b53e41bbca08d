package dev.derive.worker.video;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * CDI wiring of the video worker: its {@link VideoTransformer}, the one {@code StepTransformer}
 * bean the runtime's shared wiring runs. Settings come from {@code application.properties}, which
 * maps the environment variables of {@code template.yaml}.
 */
@Singleton
public class VideoWorkerProducers {

  /**
   * The transformer; {@code derive.video.max-pixels} is the largest frame decoded (width x height),
   * {@code derive.video.max-seconds} the longest video, {@code derive.video.ffmpeg-timeout-seconds}
   * the time one FFmpeg run is given.
   */
  @Produces
  @Singleton
  VideoTransformer videoTransformer(
      @ConfigProperty(name = "derive.video.max-pixels") long maxPixels,
      @ConfigProperty(name = "derive.video.max-seconds") double maxSeconds,
      @ConfigProperty(name = "derive.video.ffmpeg-timeout-seconds") long timeoutSeconds) {
    return new VideoTransformer(
        new VideoLimits(maxPixels, maxSeconds, Duration.ofSeconds(timeoutSeconds)));
  }
}
