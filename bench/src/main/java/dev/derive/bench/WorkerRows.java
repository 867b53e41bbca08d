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
import dev.derive.protocol.message.PinnedObject;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.image.ImageTransformer;
import dev.derive.worker.markup.MarkupTransformer;
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
 * input, run as a process (its start included, as a user of the tool would pay it). The image rows
 * against vipsthumbnail and sharp are {@link ImageRows}.
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
   * thumbnail_24mp}, {@code animated_gif}, {@code info} and {@code watermark}.
   */
  public void runImages(Path photo12, Path photo24, Path gif) throws Exception {
    new ImageRows(scale, results, tools, scratch, install, this).run(photo12, photo24, gif);
  }

  /**
   * Measures {@link #runImages}' rows, {@code pdf_page}, {@code text_pdf}, {@code markup_pdf} and
   * {@code office_pdf}.
   */
  public void run(Path photo12, Path photo24, Path gif, Path pdf, Path markdown, Path docx)
      throws Exception {
    runImages(photo12, photo24, gif);

    ObjectNode page = target(MediaTypes.IMAGE_PNG).put("page", 1).put("dpi", 150);
    tools.measureWith(
        "pdftoppm",
        results,
        "pdf_page",
        "pdftoppm -png -r 150 (page 1)",
        null,
        pdftoppm -> {
          Stats ours = compute(pdf, MediaTypes.APPLICATION_PDF, page);
          Path prefix = scratch.resolve("pdftoppm-page");
          Stats anchor =
              Timer.time(
                  scale.workerWarmups(),
                  scale.workerRuns(),
                  run ->
                      NativeTools.run(
                          List.of(
                              pdftoppm.toString(),
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
        });

    tools.measureWith(
        "pdftotext",
        results,
        "text_pdf",
        "pdftotext (every page)",
        null,
        pdftotext -> {
          Path out = scratch.resolve("pdftotext.txt");
          List<Stats> both =
              Timer.interleaved(
                  scale.shortWorkerWarmups(),
                  3 * scale.workerRuns(),
                  action(pdf, MediaTypes.APPLICATION_PDF, target(MediaTypes.TEXT_PLAIN)),
                  run ->
                      NativeTools.run(
                          List.of(pdftotext.toString(), pdf.toString(), out.toString())));
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
        });

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

    new OfficeRow(scale, results, tools, scratch).run(docx);
  }

  /** The 256 px JPEG thumbnail target of the example. */
  static ObjectNode thumbnailTarget() {
    return target(MediaTypes.IMAGE_JPEG).put("width", 256).put("height", 256);
  }

  static ObjectNode target(String mediaType) {
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
    return action(input, mediaType, target, Map.of());
  }

  /**
   * As {@link #action(Path, String, ObjectNode)}, with the other objects the target names (a
   * watermark: {@code objects} by the name of the parameter that names each) as local files, as a
   * worker has them once it has downloaded them.
   */
  Timer.Action action(Path input, String mediaType, ObjectNode target, Map<String, Path> objects)
      throws Exception {
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
    // every other object the target names is there, pinned as the source is
    Plan plan =
        planner.plan(
            source,
            spec,
            key -> Optional.of(new PinnedObject(ObjectRef.of("bench-source", key), "\"etag\"")));
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
                  step)
              .withObjects(objects));
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
