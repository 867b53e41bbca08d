package dev.derive.bench;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.ffmpeg.Ffmpeg;
import dev.derive.worker.video.VideoLimits;
import dev.derive.worker.video.VideoTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The FFmpeg rows (docs/heic-and-video.md): {@code heic_thumbnail}, a 12 MP HEIC made by libheif's
 * {@code heif-enc} from the bench's photo-like 12 MP JPEG with a 320 px thumbnail item (as iPhones
 * write one), to a 256 px JPEG, against Debian's {@code vipsthumbnail} (libvips with libheif and
 * libde265) on the same file; {@code video_poster}, a 1080p H.264 MP4 (FFmpeg's {@code testsrc2},
 * 10 s) to a poster PNG at 5 s, against {@code ffmpeg -ss 5 -i in -frames:v 1 out.png} with the
 * same FFmpeg.
 */
public final class MediaRows {
  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;
  private final WorkerRows workers;

  public MediaRows(
      Scale scale, Results results, NativeTools tools, Path scratch, WorkerRows workers)
      throws java.io.IOException {
    this.scale = scale;
    this.results = results;
    this.tools = tools;
    this.scratch = Files.createDirectories(scratch);
    this.workers = workers;
  }

  /** Measures both rows from the bench's 12 MP JPEG. */
  public void run(Path photo12) throws Exception {
    heicThumbnail(photo12);
    videoPoster();
  }

  private void heicThumbnail(Path photo12) throws Exception {
    String anchor = "vipsthumbnail --size 256x256 (Debian libvips, libheif + libde265)";
    tools.measureWith(
        "heif-enc",
        results,
        "heic_thumbnail",
        anchor,
        1.0,
        encoder ->
            tools.measureWith(
                "vipsthumbnail",
                results,
                "heic_thumbnail",
                anchor,
                1.0,
                vips -> {
                  Path heic = scratch.resolve("photo-12mp.heic");
                  // with a 320 px thumbnail item, as an iPhone writes one (240x320 beside its
                  // 4032x3024 grid)
                  NativeTools.run(
                      List.of(
                          encoder.toString(),
                          "-q",
                          "85",
                          "-t",
                          "320",
                          "-o",
                          heic.toString(),
                          photo12.toString()));
                  Stats ours = workers.compute(heic, "image/heic", WorkerRows.thumbnailTarget());
                  Stats theirs =
                      ImageRows.vipsthumbnail(
                          scale, vips, heic, scratch.resolve("vipsthumbnail-heic.jpg"));
                  results.add(
                      new Row(
                          "heic_thumbnail",
                          ours.median(),
                          "ms",
                          anchor,
                          theirs.median(),
                          1.0,
                          "ImageTransformer, FFmpeg's HEVC decoder in a process; heif-enc's one 12 MP picture"
                              + " (not an iPhone's grid of 512 px tiles) with a 320 px thumbnail item, which both"
                              + " sides decode for this box; → 256 px JPEG q85, median of "
                              + ours.count()
                              + "; compare thumbnail_12mp (the same photo as JPEG)"));
                }));
  }

  private void videoPoster() throws Exception {
    Ffmpeg ffmpeg = Ffmpeg.shared();
    Path video = new Inputs(scratch).video("video-1080p.mp4", scale.smoke() ? 2 : 10);
    double at = scale.smoke() ? 1 : 5;
    VideoTransformer transformer = new VideoTransformer(VideoLimits.DEFAULTS);
    Path poster = scratch.resolve("poster.png");
    StepMessage step =
        new StepMessage(
            "0".repeat(64),
            0,
            1,
            "video",
            List.of(new Operation(VideoTransformer.POSTER, Map.of("at", String.valueOf(at)))),
            new ObjectRef("bench", "video", null),
            "video/mp4",
            new ObjectRef("bench", "poster", null),
            MediaTypes.IMAGE_PNG,
            "bench");
    Path out = scratch.resolve("ffmpeg-poster.png");
    List<Stats> both =
        Timer.interleaved(
            scale.workerWarmups(),
            scale.workerRuns(),
            run -> {
              Files.deleteIfExists(poster);
              Files.createFile(poster);
              transformer.transform(step, video, poster);
            },
            run ->
                ffmpeg.run(
                    Ffmpeg.Tool.FFMPEG,
                    List.of(
                        "-v",
                        "error",
                        "-nostdin",
                        "-y",
                        "-ss",
                        String.valueOf(at),
                        "-i",
                        video.toString(),
                        "-frames:v",
                        "1",
                        "-update",
                        "1",
                        out.toString()),
                    null,
                    1 << 20,
                    Duration.ofMinutes(1)));
    Stats ours = both.get(0);
    Stats anchor = both.get(1);
    results.add(
        new Row(
            "video_poster",
            ours.median(),
            "ms",
            "ffmpeg -ss " + at + " -i in.mp4 -frames:v 1 out.png (the same FFmpeg 7.1)",
            anchor.median(),
            1.0,
            "VideoTransformer poster at "
                + at
                + " s of a 1080p H.264 MP4: its header read in Java, one ffmpeg confined to the"
                + " file; interleaved, median of "
                + ours.count()));
  }
}
