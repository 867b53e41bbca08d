package dev.derive.worker.office;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.DeclaredStep;
import dev.derive.worker.runtime.PermanentStepFailure;
import dev.derive.worker.runtime.StepTransformer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;

/**
 * The office capability ({@code META-INF/derive/capability.json} declares what it reads, its one
 * operation and its parameter): {@code convert} writes a word-processing document, spreadsheet or
 * presentation (OOXML, the binary Office formats, ODF, RTF) as PDF with LibreOffice, through the
 * worker's warm {@link OfficeProcess}. With {@code page} (the page a later step renders) it writes
 * only pages 1 to that page, which is all a page preview needs.
 *
 * <p>Before LibreOffice sees a document: a password-protected OOXML file fails {@code
 * password-required} ({@link EncryptedPackage}), a ZIP package over its inflation budget {@code
 * input-too-large} and a broken one {@code corrupt-input} ({@link PackageBudget}). LibreOffice then
 * reports other protected documents (ODF, binary Office), unreadable ones, documents over the page
 * limit, conversions past their deadline and a process that died ({@link OfficeProcess}). A
 * PowerPoint 97–2003 file LibreOffice cannot open is converted once more if it has the persist
 * directory defect {@link PowerPointPersistRepair} mends.
 */
public final class OfficeTransformer implements StepTransformer {
  /** Operation writing the document as PDF. */
  public static final String CONVERT = "convert";

  /** Parameter of {@link #CONVERT}: the last page to write (1-based). */
  public static final String PAGE = "page";

  private final OfficeProcess office;
  private final OfficeSettings settings;

  /**
   * @param office the warm office process conversions run in
   * @param settings the inflation budget of packages (the page limit and deadline are the
   *     process's)
   */
  public OfficeTransformer(OfficeProcess office, OfficeSettings settings) {
    this.office = office;
    this.settings = settings;
  }

  /** Runs {@link OfficeProbe} in {@code scratch}, starting the office process if it is not up. */
  @Override
  public void probe(Path scratch) throws IOException {
    OfficeProbe.run(this, scratch);
  }

  /**
   * {@inheritDoc}
   *
   * @throws PermanentStepFailure {@code password-required}, {@code corrupt-input}, {@code
   *     unsupported-input}, {@code input-too-large}, {@code timeout}, {@code worker-failed}
   */
  @Override
  public void transform(DeclaredStep step, Path input, Path output) throws IOException {
    OptionalInt lastPage = step.only().optionalInteger(PAGE);
    if (EncryptedPackage.isEncryptedOoxml(input)) {
      throw new PermanentStepFailure(
          StepErrorTypes.PASSWORD_REQUIRED,
          "the document is protected with a password; it is not opened without it");
    }
    if (PackageBudget.isPackage(input)) {
      PackageBudget.check(input, settings.maxInflatedBytes());
    }
    try {
      office.convert(input, output, lastPage);
    } catch (PermanentStepFailure failure) {
      Path repaired = input.resolveSibling(input.getFileName() + ".repaired");
      if (!failure.type().equals(StepErrorTypes.CORRUPT_INPUT)
          || !PowerPointPersistRepair.repair(input, repaired)) {
        throw failure;
      }
      try {
        office.convert(repaired, output, lastPage);
      } finally {
        Files.deleteIfExists(repaired);
      }
    }
    if (Files.size(output) == 0) {
      throw new PermanentStepFailure(
          StepErrorTypes.UNSUPPORTED_INPUT, "LibreOffice wrote no PDF for the document");
    }
  }
}
