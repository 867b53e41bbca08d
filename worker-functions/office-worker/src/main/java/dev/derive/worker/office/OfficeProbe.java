package dev.derive.worker.office;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): converts a generated one-page
 * RTF document through the office process and checks that a one-page PDF comes back. Run at init,
 * it starts the office process and loads Writer and the PDF export, so the first step finds them
 * warm; a deployment without a working LibreOffice fails here instead of failing every step.
 */
public final class OfficeProbe {
  private static final String DOCUMENT =
      "{\\rtf1\\ansi\\deff0{\\fonttbl{\\f0 Liberation Sans;}}\\f0\\fs24 Derive office probe\\par}";

  /** A page object as LibreOffice writes it (uncompressed, one per page). */
  private static final Pattern PAGE = Pattern.compile("/Type\\s*/Page\\b");

  private OfficeProbe() {}

  /**
   * Runs the probe in {@code directory} and deletes its files.
   *
   * @throws IllegalStateException if no one-page PDF comes back
   * @throws IOException on local I/O trouble
   */
  public static void run(OfficeTransformer transformer, Path directory) throws IOException {
    Path input = Files.createTempFile(directory, "probe-", ".rtf");
    Path output = Files.createTempFile(directory, "probe-", ".pdf");
    try {
      Files.writeString(input, DOCUMENT, StandardCharsets.US_ASCII);
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              CapabilityDeclarations.ofThisWorker(OfficeProbe.class.getClassLoader()).name(),
              List.of(new Operation(OfficeTransformer.CONVERT, Map.of())),
              ObjectRef.of("probe", "probe.rtf"),
              MediaTypes.APPLICATION_RTF,
              ObjectRef.of("probe", "probe.pdf"),
              MediaTypes.APPLICATION_PDF,
              "probe");
      transformer.transform(step, input, output);
      String pdf = Files.readString(output, StandardCharsets.ISO_8859_1);
      Matcher pages = PAGE.matcher(pdf);
      int count = 0;
      while (pages.find()) {
        count++;
      }
      if (!pdf.startsWith("%PDF-") || count != 1) {
        throw new IllegalStateException(
            "office probe: expected a one-page PDF, got "
                + (pdf.startsWith("%PDF-") ? count + " pages" : "no PDF"));
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
