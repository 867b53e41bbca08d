package dev.derive.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.derive.coordinator.identity.SourceIdentity;
import dev.derive.coordinator.plan.Plan;
import dev.derive.coordinator.plan.PlannedStep;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.RequestValidator;
import dev.derive.coordinator.validate.TargetSpec;
import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.image.ImageTransformer;
import dev.derive.worker.markup.MarkupTransformer;
import dev.derive.worker.office.OfficeProcess;
import dev.derive.worker.office.OfficeSettings;
import dev.derive.worker.office.OfficeTransformer;
import dev.derive.worker.pdf.PdfTransformer;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.StepTransformer;
import dev.derive.worker.text.TextTransformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Worker compute per capability: the capability's {@link StepTransformer} on a local file, in this
 * JVM (warm, C2 — Lambda runs the workers with C1 only, {@code -XX:TieredStopAtLevel=1}), with the
 * step exactly as the coordinator's planner would dispatch it; beside the native tool on the same
 * input, run as a process (its start included, as a user of the tool would pay it).
 */
public final class WorkerRows {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MAX_PIXELS = 100_000_000L;

  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;
  private final boolean install;

  /**
   * The declarations of the worker modules on the bench's class path, as the coordinator reads
   * them.
   */
  private final List<CapabilityDescriptor> declarations =
      CapabilityDeclarations.onClassPath(WorkerRows.class.getClassLoader());

  private final Planner planner = new Planner(declarations, "bench-derivatives");
  private final RequestValidator validator = new RequestValidator(declarations);
  private final Map<String, StepTransformer> transformers =
      Map.of(
          "image", new ImageTransformer(MAX_PIXELS),
          "pdf", new PdfTransformer(MAX_PIXELS),
          "text", new TextTransformer(TextTransformer.DEFAULT_MAX_TEXT_BYTES),
          "markup", new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES));

  /**
   * @param tools the native anchors
   * @param scratch a folder for outputs
   * @param install whether a missing anchor library (sharp) may be installed with npm
   */
  public WorkerRows(Scale scale, Results results, NativeTools tools, Path scratch, boolean install)
      throws IOException {
    this.scale = scale;
    this.results = results;
    this.tools = tools;
    this.scratch = Files.createDirectories(scratch);
    this.install = install;
  }

  /**
   * Measures the image worker's rows ({@code --only images}): {@code thumbnail_12mp}, {@code
   * thumbnail_12mp_vs_sharp}, {@code smartcrop}, {@code smartcrop_vs_sharp}, {@code
   * thumbnail_24mp}, {@code animated_gif} and {@code info}.
   */
  public void runImages(Path photo12, Path photo24, Path gif) throws Exception {
    thumbnail("thumbnail_12mp", photo12);
    thumbnailVsSharp(photo12);
    smartCrop(photo12);
    thumbnail("thumbnail_24mp", photo24);
    animatedGif(gif);
    info(photo12);
  }

  /**
   * Measures {@link #runImages}' rows, {@code pdf_page}, {@code text_pdf}, {@code markup_pdf} and
   * {@code office_pdf}.
   */
  public void run(Path photo12, Path photo24, Path gif, Path pdf, Path markdown, Path docx)
      throws Exception {
    runImages(photo12, photo24, gif);

    ObjectNode page = target(MediaTypes.IMAGE_PNG).put("page", 1).put("dpi", 150);
    Stats ours = compute(pdf, MediaTypes.APPLICATION_PDF, page);
    Optional<Path> pdftoppm = tools.tool("pdftoppm");
    if (pdftoppm.isEmpty()) {
      results.add(Row.unmeasured("pdf_page", "ms", "pdftoppm", null, tools.whyMissing("pdftoppm")));
    } else {
      Path prefix = scratch.resolve("pdftoppm-page");
      Stats anchor =
          Timer.time(
              scale.workerWarmups(),
              scale.workerRuns(),
              run ->
                  NativeTools.run(
                      List.of(
                          pdftoppm.get().toString(),
                          "-png",
                          "-r",
                          "150",
                          "-f",
                          "1",
                          "-l",
                          "1",
                          "-singlefile",
                          pdf.toString(),
                          prefix.toString())));
      results.add(
          new Row(
              "pdf_page",
              ours.median(),
              "ms",
              "pdftoppm -png -r 150 (page 1)",
              anchor.median(),
              null,
              "PdfTransformer render page 1 at 150 dpi, PDFBox, median of " + ours.count()));
    }

    Optional<Path> pdftotext = tools.tool("pdftotext");
    if (pdftotext.isEmpty()) {
      results.add(
          Row.unmeasured("text_pdf", "ms", "pdftotext", null, tools.whyMissing("pdftotext")));
    } else {
      Path out = scratch.resolve("pdftotext.txt");
      List<Stats> both =
          Timer.interleaved(
              scale.shortWorkerWarmups(),
              3 * scale.workerRuns(),
              action(pdf, MediaTypes.APPLICATION_PDF, target(MediaTypes.TEXT_PLAIN)),
              run ->
                  NativeTools.run(
                      List.of(pdftotext.get().toString(), pdf.toString(), out.toString())));
      results.add(
          new Row(
              "text_pdf",
              both.get(0).median(),
              "ms",
              "pdftotext (every page)",
              both.get(1).median(),
              null,
              "TextTransformer extract (Tika's PDF parser), interleaved with pdftotext after "
                  + scale.shortWorkerWarmups()
                  + " warm-ups, median of "
                  + both.get(0).count()));
    }

    Stats markup = compute(markdown, MediaTypes.TEXT_MARKDOWN, target(MediaTypes.APPLICATION_PDF));
    results.add(
        new Row(
            "markup_pdf",
            markup.median(),
            "ms",
            "none (no native tool named by the issue)",
            null,
            null,
            "MarkupTransformer Markdown → PDF (openhtmltopdf), median of " + markup.count()));

    officePdf(docx);
  }

  /**
   * {@code office_pdf}: the DOCX as a whole to PDF by the office worker's warm LibreOffice (started
   * once, before the runs, as a worker starts it at init), against {@code soffice --headless
   * --convert-to pdf} on the same file, a process per conversion with a profile it keeps between
   * runs; interleaved, so a burst of load falls on both.
   */
  private void officePdf(Path docx) throws Exception {
    Optional<Path> soffice = tools.tool("soffice");
    if (soffice.isEmpty()) {
      results.add(
          Row.unmeasured(
              "office_pdf", "ms", "soffice --convert-to pdf", 0.5, tools.whyMissing("soffice")));
      return;
    }
    OfficeSettings settings =
        new OfficeSettings(
            soffice.get().toRealPath().getParent().getParent(), 300_000, 500, 256L << 20);
    Path profile = scratch.resolve("soffice-profile");
    Path outdir = Files.createDirectories(scratch.resolve("soffice-out"));
    try (OfficeProcess office = new OfficeProcess(settings, scratch.resolve("office"))) {
      office.start();
      OfficeTransformer transformer = new OfficeTransformer(office, settings);
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              "office",
              List.of(new Operation(OfficeTransformer.CONVERT, Map.of())),
              ObjectRef.of("bench", docx.getFileName().toString()),
              MediaTypes.APPLICATION_DOCX,
              ObjectRef.of("bench", "office.pdf"),
              MediaTypes.APPLICATION_PDF,
              "bench");
      Path output = scratch.resolve("office.pdf");
      List<Stats> timed =
          Timer.interleaved(
              scale.workerWarmups(),
              scale.workerRuns(),
              run -> {
                Files.deleteIfExists(output);
                Files.createFile(output);
                transformer.transform(step, docx, output);
              },
              run ->
                  NativeTools.run(
                      List.of(
                          soffice.get().toString(),
                          "-env:UserInstallation=" + profile.toUri(),
                          "--headless",
                          "--convert-to",
                          "pdf",
                          "--outdir",
                          outdir.toString(),
                          docx.toString())));
      results.add(
          new Row(
              "office_pdf",
              timed.get(0).median(),
              "ms",
              "soffice --headless --convert-to pdf (a process per document)",
              timed.get(1).median(),
              0.5,
              "OfficeTransformer DOCX → PDF, "
                  + docx.getFileName()
                  + " ("
                  + Files.size(docx) / 1024
                  + " KiB, pictures), the worker's warm LibreOffice, median of "
                  + timed.get(0).count()));
    }
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
        thumbnailTarget(),
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
    ObjectNode target = thumbnailTarget().put("fit", "cover").put("gravity", "smart");
    Stats ours = compute(photo, MediaTypes.IMAGE_JPEG, target);
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
   * image), interleaved run by run. Each side saves with its own default GIF effort (Derive 6,
   * libvips' gifsave 7).
   */
  private void animatedGif(Path gif) throws Exception {
    String anchorName = "vips thumbnail in.gif[n=-1] out.gif 256 --height 256";
    Optional<Path> vips = tools.tool("vips");
    if (vips.isEmpty()) {
      results.add(Row.unmeasured("animated_gif", "ms", anchorName, 1.0, tools.whyMissing("vips")));
      return;
    }
    ObjectNode target =
        target(MediaTypes.IMAGE_GIF).put("width", 256).put("height", 256).put("animated", true);
    Path out = scratch.resolve("vips-thumbnail-animated.gif");
    List<Stats> both =
        Timer.interleaved(
            scale.workerWarmups(),
            scale.workerRuns(),
            action(gif, MediaTypes.IMAGE_GIF, target),
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
              action(photo, MediaTypes.IMAGE_JPEG, target(MediaTypes.APPLICATION_JSON)),
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
    Timer.Action derive = action(photo, MediaTypes.IMAGE_JPEG, target);
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
    Stats ours = compute(photo, MediaTypes.IMAGE_JPEG, thumbnailTarget());
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

  /** The 256 px JPEG thumbnail target of the example. */
  static ObjectNode thumbnailTarget() {
    return target(MediaTypes.IMAGE_JPEG).put("width", 256).put("height", 256);
  }

  private static ObjectNode target(String mediaType) {
    return JSON.createObjectNode().put("mediaType", mediaType);
  }

  /**
   * Times the whole plan from {@code input} to {@code target} (each step's transform, chained
   * through local files), as the planner plans it.
   */
  public Stats compute(Path input, String mediaType, ObjectNode target) throws Exception {
    return Timer.time(scale.workerWarmups(), scale.workerRuns(), action(input, mediaType, target));
  }

  /**
   * The whole plan from {@code input} to {@code target} as one timed action (each step's transform,
   * chained through local files), bound to its declarations before anything is timed.
   */
  Timer.Action action(Path input, String mediaType, ObjectNode target) throws Exception {
    ObjectNode body = JSON.createObjectNode();
    body.putObject("source").put("key", "bench/" + input.getFileName());
    body.set("target", target);
    TargetSpec spec = validator.validate(body).target();
    SourceIdentity source =
        new SourceIdentity(
            "bench-source",
            "bench/" + input.getFileName(),
            null,
            "\"etag\"",
            Files.size(input),
            mediaType);
    Plan plan = planner.plan(source, spec);
    List<StepMessage> steps = new ArrayList<>();
    ObjectRef in = source.ref();
    for (int i = 0; i < plan.size(); i++) {
      PlannedStep step = plan.step(i);
      steps.add(
          new StepMessage(
              plan.fingerprint(),
              i,
              plan.size(),
              step.capability(),
              step.operations(),
              in,
              step.inputMediaType(),
              step.output(),
              step.outputMediaType(),
              "bench"));
      in = step.output();
    }
    // bound to their declarations once, as a worker binds each step before it times anything
    List<DeclaredStep> bound = new ArrayList<>();
    for (StepMessage step : steps) {
      bound.add(
          DeclaredStep.bind(
              declarations.stream()
                  .filter(d -> d.name().equals(step.capability()))
                  .findFirst()
                  .orElseThrow(),
              step));
    }
    return run -> {
      Path current = input;
      for (DeclaredStep declared : bound) {
        StepMessage step = declared.message();
        Path output = scratch.resolve("step-" + step.stepIndex() + "." + step.capability());
        Files.deleteIfExists(output);
        Files.createFile(output);
        transformers.get(step.capability()).transform(declared, current, output);
        current = output;
      }
    };
  }
}
