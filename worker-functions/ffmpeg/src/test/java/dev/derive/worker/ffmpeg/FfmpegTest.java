package dev.derive.worker.ffmpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FfmpegTest {
  private final Ffmpeg ffmpeg = Ffmpeg.shared();

  @Test
  void runsTheLayersFfmpegWithItsLibrariesAndTheDeviceStandIns() {
    String version =
        new String(
            ffmpeg.run(
                Ffmpeg.Tool.FFMPEG, List.of("-version"), null, 1 << 20, Duration.ofSeconds(30)),
            StandardCharsets.UTF_8);
    assertThat(version).startsWith("ffmpeg version 7.1");
    String probe =
        new String(
            ffmpeg.run(
                Ffmpeg.Tool.FFPROBE, List.of("-version"), null, 1 << 20, Duration.ofSeconds(30)),
            StandardCharsets.UTF_8);
    assertThat(probe).startsWith("ffprobe version 7.1");
  }

  @Test
  void decodesWhatItIsGivenOnStandardInputIntoItsStandardOutput() {
    // 4x2 grey pixels in, the same out through the rawvideo demuxer and muxer
    byte[] pixels = {0, 32, 64, 96, (byte) 128, (byte) 160, (byte) 192, (byte) 224};
    byte[] out =
        ffmpeg.run(
            Ffmpeg.Tool.FFMPEG,
            List.of(
                "-v",
                "error",
                "-protocol_whitelist",
                "pipe",
                "-f",
                "rawvideo",
                "-pix_fmt",
                "gray",
                "-s",
                "4x2",
                "-i",
                "pipe:0",
                "-f",
                "rawvideo",
                "-pix_fmt",
                "gray",
                "pipe:1"),
            pixels,
            64,
            Duration.ofSeconds(30));
    assertThat(out).containsExactly(pixels);
  }

  @Test
  void aRunPastItsDeadlineIsKilledAndSaysSo() {
    long start = System.nanoTime();
    assertThatThrownBy(
            () ->
                ffmpeg.run(
                    Ffmpeg.Tool.FFMPEG,
                    List.of(
                        "-v",
                        "error",
                        "-re",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc=d=60",
                        "-f",
                        "null",
                        "-"),
                    null,
                    1 << 20,
                    Duration.ofMillis(700)))
        .isInstanceOf(FfmpegTimeoutException.class)
        .hasMessage("ffmpeg did not finish within 700 ms and was killed");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    assertThat(
            ProcessHandle.current()
                .children()
                .filter(p -> p.info().command().orElse("").endsWith("ffmpeg")))
        .isEmpty();
  }

  @Test
  void aRunThatPrintsMoreThanItsBoundIsKilled() {
    assertThatThrownBy(
            () ->
                ffmpeg.run(
                    Ffmpeg.Tool.FFMPEG,
                    List.of(
                        "-v",
                        "error",
                        "-f",
                        "lavfi",
                        "-i",
                        "testsrc=d=10",
                        "-f",
                        "rawvideo",
                        "pipe:1"),
                    null,
                    100_000,
                    Duration.ofSeconds(30)))
        .isInstanceOf(FfmpegException.class)
        .hasMessage("ffmpeg printed more than 100000 bytes and was killed");
  }

  @Test
  void aFailedRunCarriesFfmpegsOwnLastErrorLines() {
    assertThatThrownBy(
            () ->
                ffmpeg.run(
                    Ffmpeg.Tool.FFPROBE,
                    List.of("-v", "error", "file:/nonexistent/clip.mp4"),
                    null,
                    1 << 20,
                    Duration.ofSeconds(30)))
        .isInstanceOf(FfmpegException.class)
        .hasMessageContaining("No such file or directory")
        .satisfies(e -> assertThat(((FfmpegException) e).exitCode()).isPositive());
  }

  @Test
  void aMissingFolderIsNamedWithWhatToSet() {
    assertThatThrownBy(() -> Ffmpeg.in(java.nio.file.Path.of("/nonexistent/layer")))
        .isInstanceOf(FfmpegUnavailableException.class)
        .hasMessageContaining("/nonexistent/layer does not exist")
        .hasMessageContaining("DERIVE_FFMPEG_PATH");
  }
}
