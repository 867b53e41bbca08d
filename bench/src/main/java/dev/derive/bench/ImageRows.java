package dev.derive.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.protocol.MediaTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The image rows of the worker compute table: {@code thumbnail_12mp} and {@code thumbnail_24mp}
 * against vipsthumbnail, {@code thumbnail_12mp_vs_sharp} and {@code smartcrop_vs_sharp} against a
 * warm sharp, {@code smartcrop}, {@code animated_gif} and {@code info}; each times the plan {@link
 * WorkerRows} binds, in this JVM.
 */
final class ImageRows {
  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;
  private final boolean install;
  private final WorkerRows workers;

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

  /** Measures the image rows, each on the photo or GIF it is named for. */
  void run(Path photo12, Path photo24, Path gif) throws Exception {
    thumbnail("thumbnail_12mp", photo12);
    thumbnailVsSharp(photo12);
    smartCrop(photo12);
    thumbnail("thumbnail_24mp", photo24);
    animatedGif(gif);
    info(photo12);
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
    Stats ours = workers.compute(photo, MediaTypes.IMAGE_JPEG, target);
    Optional<Path> vips = tools.tool("vipsthumbnail");
    if (vips.isEmpty()) {
      results.add(
          Row.unmeasured(
              "smartcrop", "ms", "vipsthumbnail", 1.0, tools.whyMissing("vipsthumbnail")));
    } else {
      Path out = scratch.resolve("vipsthumbnail-smartcrop.jpg");
      Stats anchor =
          Timer.time(
              scale.workerWarmups(),
              scale.workerRuns(),
              run ->
                  NativeTools.run(
                      List.of(
                          vips.get().toString(),
                          photo.toString(),
                          "--size",
                          "256x256",
                          "--smartcrop",
                          "attention",
                          "-o",
                          out + "[Q=85,strip]")));
      results.add(
          new Row(
              "smartcrop",
              ours.median(),
              "ms",
              "vipsthumbnail --size 256x256 --smartcrop attention (Q=85, strip)",
              anchor.median(),
              1.0,
              "ImageTransformer → 256 x 256 cover, gravity smart, JPEG q85, median of "
                  + ours.count()));
    }
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
   * {@code animated_gif}: every frame of an animated GIF resized into 256 x 256 and saved as an
   * animated GIF, against {@code vips thumbnail in.gif[n=-1] out.gif 256} (all pages, a process per
   * image), interleaved run by run. Each side saves with its own default GIF effort (Derive's for
   * an animation 4, {@code ImageEncoder.ANIMATED_GIF_DEFAULT_EFFORT}; libvips' gifsave 7).
   */
  private void animatedGif(Path gif) throws Exception {
    String anchorName = "vips thumbnail in.gif[n=-1] out.gif 256 --height 256";
    Optional<Path> vips = tools.tool("vips");
    if (vips.isEmpty()) {
      results.add(Row.unmeasured("animated_gif", "ms", anchorName, 1.0, tools.whyMissing("vips")));
      return;
    }
    ObjectNode target =
        WorkerRows.target(MediaTypes.IMAGE_GIF)
            .put("width", 256)
            .put("height", 256)
            .put("animated", true);
    Path out = scratch.resolve("vips-thumbnail-animated.gif");
    List<Stats> both =
        Timer.interleaved(
            scale.workerWarmups(),
            scale.workerRuns(),
            workers.action(gif, MediaTypes.IMAGE_GIF, target),
            run ->
                NativeTools.run(
                    List.of(
                        vips.get().toString(),
                        "thumbnail",
                        gif + "[n=-1]",
                        out.toString(),
                        "256",
                        "--height",
                        "256")));
    results.add(
        new Row(
            "animated_gif",
            both.get(0).median(),
            "ms",
            anchorName,
            both.get(1).median(),
            1.0,
            "ImageTransformer → every frame inside 256 x 256, animated GIF, of "
                + gif.getFileName()
                + " ("
                + Files.size(gif) / 1024
                + " KiB), interleaved, median of "
                + both.get(0).count()));
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
    Optional<Path> vipsheader = tools.tool("vipsheader");
    if (vipsheader.isEmpty()) {
      results.add(Row.unmeasured("info", "ms", anchorName, 1.0, tools.whyMissing("vipsheader")));
      return;
    }
    try (SharpAnchor sharp = SharpAnchor.start(scratch, install, true)) {
      Path hash = scratch.resolve("thumbhash.txt");
      List<Stats> all =
          Timer.interleaved(
              scale.workerWarmups(),
              scale.workerRuns(),
              workers.action(
                  photo, MediaTypes.IMAGE_JPEG, WorkerRows.target(MediaTypes.APPLICATION_JSON)),
              run -> NativeTools.run(List.of(vipsheader.get().toString(), "-a", photo.toString())),
              run -> sharp.run("thumbhash", photo, hash));
      double header = all.get(1).median();
      double thumbHash = all.get(2).median();
      results.add(
          new Row(
              "info",
              all.get(0).median(),
              "ms",
              anchorName
                  + " (rgbaToThumbHash of sharp(f).resize(100, 100, {fit: 'inside'}).raw(), "
                  + sharp.describe()
                  + ")",
              header + thumbHash,
              1.0,
              "ImageTransformer info JSON (header, EXIF, dominant colour, BlurHash, ThumbHash) of"
                  + " the 12 MP photo; anchor vipsheader "
                  + CoordinatorRows.round(header)
                  + " ms + ThumbHash "
                  + CoordinatorRows.round(thumbHash)
                  + " ms; interleaved, median of "
                  + all.get(0).count()));
    } catch (IOException e) {
      results.add(Row.unmeasured("info", "ms", anchorName, 1.0, e.getMessage()));
    }
  }

  /** One of Derive's image rows against a warm sharp doing the same, interleaved run by run. */
  private void vsSharp(
      String id, Path photo, ObjectNode target, String sharpMode, String sharpCall, String ours)
      throws Exception {
    Timer.Action derive = workers.action(photo, MediaTypes.IMAGE_JPEG, target);
    try (SharpAnchor sharp = SharpAnchor.start(scratch, install)) {
      Path out = scratch.resolve("sharp-" + sharpMode + ".jpg");
      List<Stats> both =
          Timer.interleaved(
              scale.workerWarmups(),
              scale.workerRuns(),
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
    } catch (IOException e) {
      results.add(Row.unmeasured(id, "ms", "sharp " + SharpAnchor.VERSION, 1.0, e.getMessage()));
    }
  }

  private void thumbnail(String id, Path photo) throws Exception {
    Stats ours = workers.compute(photo, MediaTypes.IMAGE_JPEG, WorkerRows.thumbnailTarget());
    Optional<Path> vips = tools.tool("vipsthumbnail");
    if (vips.isEmpty()) {
      results.add(
          Row.unmeasured(id, "ms", "vipsthumbnail", null, tools.whyMissing("vipsthumbnail")));
      return;
    }
    Path out = scratch.resolve("vipsthumbnail.jpg");
    Stats anchor =
        Timer.time(
            scale.workerWarmups(),
            scale.workerRuns(),
            run ->
                NativeTools.run(
                    List.of(
                        vips.get().toString(),
                        photo.toString(),
                        "--size",
                        "256x256",
                        "-o",
                        out + "[Q=85,strip]")));
    results.add(
        new Row(
            id,
            ours.median(),
            "ms",
            "vipsthumbnail --size 256x256 (Q=85, strip)",
            anchor.median(),
            null,
            "ImageTransformer → 256 px JPEG q85, median of "
                + ours.count()
                + " (p90 "
                + CoordinatorRows.round(ours.p90())
                + " ms)"));
  }
}
