package dev.derive.bench;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.office.OfficeProcess;
import dev.derive.worker.office.OfficeSettings;
import dev.derive.worker.office.OfficeTransformer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The {@code office_pdf} row of the worker compute table (a LibreOffice kept warm, as the worker
 * does).
 */
final class OfficeRow {
  private final Scale scale;
  private final Results results;
  private final NativeTools tools;
  private final Path scratch;

  OfficeRow(Scale scale, Results results, NativeTools tools, Path scratch) {
    this.scale = scale;
    this.results = results;
    this.tools = tools;
    this.scratch = scratch;
  }

  /**
   * {@code office_pdf}: the DOCX as a whole to PDF by the office worker's warm LibreOffice (started
   * once, before the runs, as a worker starts it at init), against {@code soffice --headless
   * --convert-to pdf} on the same file, a process per conversion with a profile it keeps between
   * runs; interleaved, so a burst of load falls on both.
   */
  void run(Path docx) throws Exception {
    tools.measureWith(
        "soffice",
        results,
        "office_pdf",
        "soffice --convert-to pdf",
        0.5,
        soffice -> measure(docx, soffice));
  }

  private void measure(Path docx, Path soffice) throws Exception {
    OfficeSettings settings =
        new OfficeSettings(soffice.toRealPath().getParent().getParent(), 300_000, 500, 256L << 20);
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
                          soffice.toString(),
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
}
