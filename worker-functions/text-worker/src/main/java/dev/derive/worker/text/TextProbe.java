package dev.derive.worker.text;

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

/**
 * The capability's self-test (a probe, as Alfresco T-Engines have): extracts the text of a
 * generated HTML page and checks that its known phrase, accents included, comes out as UTF-8 and
 * its markup does not.
 */
public final class TextProbe {
  private static final String PHRASE = "Derive probe: café, naïve, résumé";

  private TextProbe() {}

  /**
   * Runs the probe in {@code directory} and deletes its files.
   *
   * @throws IllegalStateException if the text is not the expected one
   * @throws IOException on local I/O trouble
   */
  public static void run(TextTransformer transformer, Path directory) throws IOException {
    Path input = Files.createTempFile(directory, "probe-", ".html");
    Path output = Files.createTempFile(directory, "probe-", ".txt");
    try {
      Files.writeString(
          input,
          "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>probe</title></head>"
              + "<body><p><b>"
              + PHRASE
              + "</b></p></body></html>",
          StandardCharsets.UTF_8);
      StepMessage step =
          new StepMessage(
              "0".repeat(64),
              0,
              1,
              CapabilityDeclarations.ofThisWorker(TextProbe.class.getClassLoader()).name(),
              List.of(new Operation(TextTransformer.EXTRACT, Map.of())),
              ObjectRef.of("probe", "probe.html"),
              "text/html",
              ObjectRef.of("probe", "probe.txt"),
              "text/plain; charset=utf-8",
              "probe");
      transformer.transform(step, input, output);
      String text = Files.readString(output, StandardCharsets.UTF_8);
      if (!text.contains(PHRASE) || text.contains("<b>")) {
        throw new IllegalStateException("text probe: unexpected text " + text);
      }
    } finally {
      Files.deleteIfExists(input);
      Files.deleteIfExists(output);
    }
  }
}
