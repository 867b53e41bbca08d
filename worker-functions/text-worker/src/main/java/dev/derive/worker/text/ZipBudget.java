package dev.derive.worker.text;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

/**
 * Refuses a zip-packaged document (DOCX, XLSX, PPTX, ODT, EPUB) before it is parsed when what it
 * holds would not fit the worker's memory unpacked: the sizes its central directory declares, one
 * entry and all together, read without inflating anything. A DOCX whose 10 MB {@code
 * word/document.xml} inflates to 1 GiB ran the text worker out of memory in 15 s (the XML is read
 * into a tree whole; the 10 MiB output cap comes too late), and again on every retry (issue 26 item
 * 15). A declared size can lie: POI, which reads the parts, is held to the same bound per entry
 * while inflating ({@code ZipSecureFile.setMaxEntrySize}, set by {@link TextTransformer}).
 */
final class ZipBudget {
  /**
   * The most one part may hold unpacked, in bytes: a document's XML is read into a tree several
   * times its size in a 2 GB worker, and a part this large would give far more text than the 10 MiB
   * output cap in any case.
   */
  static final long MAX_ENTRY_BYTES = 128L * 1024 * 1024;

  /** The most all parts together may hold unpacked, in bytes. */
  static final long MAX_TOTAL_BYTES = 512L * 1024 * 1024;

  private ZipBudget() {}

  /**
   * Checks {@code input} if it is a zip archive (local file header {@code PK\3\4}); anything else
   * passes untouched, and so does a zip whose directory cannot be read (the parser then says what
   * is wrong with it).
   *
   * @throws PermanentStepFailure {@code input-too-large} naming the part over the budget
   */
  static void check(Path input, String documentName) throws IOException {
    if (!isZip(input)) {
      return;
    }
    long total = 0;
    try (ZipFile zip = new ZipFile(input.toFile())) {
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        long size = Math.max(0, entry.getSize());
        if (size > MAX_ENTRY_BYTES) {
          throw tooLarge(documentName, "its part " + entry.getName() + " unpacks to " + mib(size));
        }
        total += size;
        if (total > MAX_TOTAL_BYTES) {
          throw tooLarge(documentName, "its parts unpack to more than " + mib(total));
        }
      }
    } catch (ZipException unreadable) {
      // not for this check to judge: the parser reports a damaged document
    }
  }

  private static boolean isZip(Path input) throws IOException {
    byte[] head = new byte[4];
    try (InputStream in = Files.newInputStream(input)) {
      return in.readNBytes(head, 0, 4) == 4
          && head[0] == 'P'
          && head[1] == 'K'
          && head[2] == 3
          && head[3] == 4;
    }
  }

  private static PermanentStepFailure tooLarge(String documentName, String what) {
    return new PermanentStepFailure(
        StepErrorTypes.INPUT_TOO_LARGE,
        "the "
            + documentName
            + " is too large to read: "
            + what
            + ", over the limit of "
            + mib(MAX_ENTRY_BYTES)
            + " a part and "
            + mib(MAX_TOTAL_BYTES)
            + " in all");
  }

  private static String mib(long bytes) {
    return (bytes + 1024 * 1024 - 1) / (1024 * 1024) + " MiB";
  }
}
