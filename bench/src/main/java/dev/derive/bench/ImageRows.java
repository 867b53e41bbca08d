package dev.derive.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.MediaTypes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The image rows of the worker compute table: {@code thumbnail_12mp} and {@code thumbnail_24mp}
 * against vipsthumbnail, {@code thumbnail_12mp_vs_sharp} and {@code smartcrop_vs_sharp} against a
 * warm sharp, {@code smartcrop} and {@code info}, then the rows against the {@code vips} command
 * ({@link VipsCommandRows}); each times the plan {@link WorkerRows} binds, in this JVM.
 */
final class ImageRows {
  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;
  private final boolean install;
  private final WorkerRows workers;

  /** The warm sharp of the sharp rows while {@link #run} runs, or {@code null}. */
  private SharpAnchor sharp;

  /** Why {@link #sharp} could not be started. */
  private String sharpProblem;

  ImageRows(
      Scale scale,
      Results results,
      NativeTools tools,
      Path scratch,
      boolean install,
      WorkerRows workers) {
    this.scale = scale;
    this.results = results;
    this.tools = tools;
    this.scratch = scratch;
    this.install = install;
    this.workers = workers;
  }

  /**
   * Measures the image rows, each on the photo or GIF it is named for; the sharp rows share one
   * warm sharp ({@link SharpAnchor}), started once.
   */
  void run(Path photo12, Path photo24, Path gif) throws Exception {
    thumbnail("thumbnail_12mp", photo12);
    try {
      sharp = SharpAnchor.start(scratch, install, true);
    } catch (IOException e) {
      sharpProblem = e.getMessage();
    }
    try {
      thumbnailVsSharp(photo12);
      smartCrop(photo12);
      thumbnail("thumbnail_24mp", photo24);
      info(photo12);
    } finally {
      if (sharp != null) {
        sharp.close();
        sharp = null;
      }
    }
    new VipsCommandRows(scale, results, tools, scratch, workers).run(photo12, gif);
  }

  /** A row's measurement against the warm sharp. */
  @FunctionalInterface
  private interface SharpMeasure {
    void run(SharpAnchor sharp) throws Exception;
  }

  /**
   * Runs {@code measure} with the warm sharp when it started; otherwise adds row {@code id}
   * unmeasured against {@code anchor}, saying why sharp is missing.
   */
  private void withSharp(String id, String anchor, SharpMeasure measure) throws Exception {
    if (sharp == null) {
      results.add(Row.unmeasured(id, "ms", anchor, 1.0, sharpProblem));
      return;
    }
    measure.run(sharp);
  }

  /**
   * {@code thumbnail_12mp_vs_sharp}: Derive's in-process thumbnail and a warm sharp's ({@link
   * SharpAnchor}) of the same photo, timed interleaved (one of each per run, so load falls on both
   * alike).
   */
  private void thumbnailVsSharp(Path photo) throws Exception {
    vsSharp(
        "thumbnail_12mp_vs_sharp",
        photo,
        WorkerRows.thumbnailTarget(),
        "thumbnail",
        "sharp(f).rotate().resize(256, 256, {fit: 'inside'}).jpeg({quality: 85})",
        "ImageTransformer → 256 px JPEG q85");
  }

  /**
   * {@code smartcrop}: a 256 x 256 cover crop with gravity smart (libvips attention) against {@code
   * vipsthumbnail --smartcrop attention}, and {@code smartcrop_vs_sharp} against sharp's {@code
   * position: attention}.
   */
  private void smartCrop(Path photo) throws Exception {
    ObjectNode target = WorkerRows.thumbnailTarget().put("fit", "cover").put("gravity", "smart");
    String anchor = "vipsthumbnail --size 256x256 --smartcrop attention (Q=85, strip)";
    tools.measureWith(
        "vipsthumbnail",
        results,
        "smartcrop",
        anchor,
        1.0,
        vips -> {
          Stats ours = workers.compute(photo, MediaTypes.IMAGE_JPEG, target);
          Stats theirs =
              vipsthumbnail(
                  scale,
                  vips,
                  photo,
                  scratch.resolve("vipsthumbnail-smartcrop.jpg"),
                  "--smartcrop",
                  "attention");
          results.add(
              new Row(
                  "smartcrop",
                  ours.median(),
                  "ms",
                  anchor,
                  theirs.median(),
                  1.0,
                  "ImageTransformer → 256 x 256 cover, gravity smart, JPEG q85, median of "
                      + ours.count()));
        });
    vsSharp(
        "smartcrop_vs_sharp",
        photo,
        target,
        "smartcrop",
        "sharp(f).rotate().resize(256, 256, {fit: 'cover', position: sharp.strategy.attention})"
            + ".jpeg({quality: 85})",
        "ImageTransformer → 256 x 256 cover, gravity smart, JPEG q85");
  }

  /**
   * {@code info}: the info derivative (JSON with the ThumbHash, BlurHash and dominant colour) of
   * the 12 MP photo, against what a user would run for the same facts: {@code vipsheader -a} (a
   * process) for the header, and the reference ThumbHash encoder (npm {@code thumbhash}) on a 100
   * px RGBA decode by a warm sharp ({@link SharpAnchor}, as the encoder's README does it),
   * interleaved run by run; the anchor is the sum of the two.
   */
  private void info(Path photo) throws Exception {
    String anchorName = "vipsheader -a + thumbhash " + SharpAnchor.THUMBHASH_VERSION;
    tools.measureWith(
        "vipsheader",
        results,
        "info",
        anchorName,
        1.0,
        vipsheader ->
            withSharp(
                "info",
                anchorName,
                sharp -> {
                  Path hash = scratch.resolve("thumbhash.txt");
                  List<Stats> all =
                      Timer.interleaved(
                          scale.workerWarmups(),
                          scale.workerRuns(),
                          workers.action(
                              photo,
                              MediaTypes.IMAGE_JPEG,
                              WorkerRows.target(MediaTypes.APPLICATION_JSON)),
                          run ->
                              NativeTools.run(
                                  List.of(vipsheader.toString(), "-a", photo.toString())),
                          run -> sharp.run("thumbhash", photo, hash));
                  double header = all.get(1).median();
                  double thumbHash = all.get(2).median();
                  results.add(
                      new Row(
                          "info",
                          all.get(0).median(),
                          "ms",
                          anchorName
                              + " (rgbaToThumbHash of sharp(f).resize(100, 100, {fit: 'inside'})"
                              + ".raw(), "
                              + sharp.describe()
                              + ")",
                          header + thumbHash,
                          1.0,
                          "ImageTransformer info JSON (header, EXIF, dominant colour, BlurHash,"
                              + " ThumbHash) of the 12 MP photo; anchor vipsheader "
                              + CoordinatorRows.round(header)
                              + " ms + ThumbHash "
                              + CoordinatorRows.round(thumbHash)
                              + " ms; interleaved, median of "
                              + all.get(0).count()));
                }));
  }

  /** One of Derive's image rows against the warm sharp doing the same, interleaved run by run. */
  private void vsSharp(
      String id, Path photo, ObjectNode target, String sharpMode, String sharpCall, String ours)
      throws Exception {
    Timer.Action derive = workers.action(photo, MediaTypes.IMAGE_JPEG, target);
    withSharp(
        id,
        "sharp " + SharpAnchor.VERSION,
        sharp -> {
          Path out = scratch.resolve("sharp-" + sharpMode + ".jpg");
          List<Stats> both =
              Timer.interleaved(
                  scale.workerWarmups(),
                  3 * scale.workerRuns(), // tens of ms a run: more runs steady the median
                  derive,
                  run -> sharp.run(sharpMode, photo, out));
          results.add(
              new Row(
                  id,
                  both.get(0).median(),
                  "ms",
                  sharp.describe() + ": " + sharpCall,
                  both.get(1).median(),
                  1.0,
                  ours + ", interleaved with sharp, median of " + both.get(0).count()));
        });
  }

  private void thumbnail(String id, Path photo) throws Exception {
    String anchor = "vipsthumbnail --size 256x256 (Q=85, strip)";
    tools.measureWith(
        "vipsthumbnail",
        results,
        id,
        anchor,
        null,
        vips -> {
          Stats ours = workers.compute(photo, MediaTypes.IMAGE_JPEG, WorkerRows.thumbnailTarget());
          Stats theirs = vipsthumbnail(scale, vips, photo, scratch.resolve("vipsthumbnail.jpg"));
          results.add(
              new Row(
                  id,
                  ours.median(),
                  "ms",
                  anchor,
                  theirs.median(),
                  null,
                  "ImageTransformer → 256 px JPEG q85, median of "
                      + ours.count()
                      + " (p90 "
                      + CoordinatorRows.round(ours.p90())
                      + " ms)"));
        });
  }

  /**
   * Times {@code vipsthumbnail input --size 256x256 [options] -o output[Q=85,strip]}, a process a
   * run (its start included, as a user of the tool pays it), after the heavy rows' warm-ups.
   */
  static Stats vipsthumbnail(Scale scale, Path vips, Path input, Path output, String... options)
      throws Exception {
    List<String> command =
        new ArrayList<>(List.of(vips.toString(), input.toString(), "--size", "256x256"));
    command.addAll(List.of(options));
    command.addAll(List.of("-o", output + "[Q=85,strip]"));
    return Timer.time(scale.workerWarmups(), scale.workerRuns(), run -> NativeTools.run(command));
  }
}
