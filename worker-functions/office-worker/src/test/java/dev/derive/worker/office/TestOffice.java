package dev.derive.worker.office;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The office process the tests of this module share (one per test JVM, as one per worker process:
 * starting LibreOffice takes seconds), stopped when the JVM exits, and steps to run through it.
 */
final class TestOffice {
  /**
   * The worker's {@code application.properties} defaults, but a deadline that a busy machine (five
   * builds on two cores) meets on the 48-slide deck too: it took 40 to 60 s there.
   */
  static final OfficeSettings SETTINGS =
      new OfficeSettings(OfficeSettings.officeHome(Optional.empty()), 240_000, 500, 256L << 20);

  private static OfficeProcess shared;

  private TestOffice() {}

  /** The shared office process, started on first use; fails saying what to install. */
  static synchronized OfficeProcess process() {
    if (shared == null) {
      OfficeProcess office = new OfficeProcess(SETTINGS, workingDirectory("shared"));
      try {
        office.start();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Runtime.getRuntime().addShutdownHook(new Thread(office::close));
      shared = office;
    }
    return shared;
  }

  /** A transformer on the shared office process with the default settings. */
  static OfficeTransformer transformer() {
    return new OfficeTransformer(process(), SETTINGS);
  }

  /** A working folder for an office process of a test, under the build folder. */
  static Path workingDirectory(String name) {
    return Path.of(System.getProperty("user.dir"), "target", "office-" + name);
  }

  /** An office step converting a document of {@code mediaType} to PDF, with {@code params}. */
  static StepMessage step(String mediaType, Map<String, Object> params) {
    return new StepMessage(
        "f".repeat(64),
        0,
        1,
        "office",
        List.of(new Operation(OfficeTransformer.CONVERT, params)),
        ObjectRef.of("source", "in"),
        mediaType,
        ObjectRef.of("derivatives", "out"),
        MediaTypes.APPLICATION_PDF,
        "test");
  }
}
