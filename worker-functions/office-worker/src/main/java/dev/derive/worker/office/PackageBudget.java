package dev.derive.worker.office;

import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;

/**
 * Checks a ZIP-packaged document (OOXML, ODF) before LibreOffice sees it, which inflates every part
 * it reads and trusts the sizes the package declares: every entry is inflated here into nothing and
 * counted, so a package whose parts together inflate beyond the budget (a {@code word/document.xml}
 * of 1 GiB, overlapping entries, a package nested in a package) is refused {@code input-too-large}
 * in about a second, and one whose ZIP structure is broken (no central directory, a bad checksum,
 * data cut short) {@code corrupt-input}. The actual bytes count, not the declared sizes. Packages
 * nested {@value #MAX_NESTING} deep (an embedded workbook in a document) count towards the same
 * budget; deeper ones only as the bytes of their entry.
 */
final class PackageBudget {
  /** The most entries a package may hold (a large deck has a few thousand). */
  static final int MAX_ENTRIES = 20_000;

  /** How deep nested packages are opened and counted. */
  static final int MAX_NESTING = 2;

  private static final byte[] LOCAL_HEADER = {'P', 'K', 3, 4};
  private static final byte[] EMPTY_ARCHIVE = {'P', 'K', 5, 6};

  private final long maxInflatedBytes;
  private final byte[] buffer = new byte[64 * 1024];
  private long inflated;

  private PackageBudget(long maxInflatedBytes) {
    this.maxInflatedBytes = maxInflatedBytes;
  }

  /** Whether {@code file} starts as a ZIP archive does. */
  static boolean isPackage(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4);
      return Arrays.equals(head, LOCAL_HEADER) || Arrays.equals(head, EMPTY_ARCHIVE);
    }
  }

  /**
   * Inflates every entry of the package {@code file} and counts the bytes.
   *
   * @throws PermanentStepFailure {@code input-too-large} over {@code maxInflatedBytes} or {@link
   *     #MAX_ENTRIES}; {@code corrupt-input} when the ZIP structure cannot be read
   * @throws IOException on local I/O trouble
   */
  static void check(Path file, long maxInflatedBytes) throws IOException {
    new PackageBudget(maxInflatedBytes).checkPackage(file);
  }

  private void checkPackage(Path file) throws IOException {
    try (ZipFile zip = new ZipFile(file.toFile())) {
      if (zip.size() > MAX_ENTRIES) {
        throw tooManyEntries();
      }
      Enumeration<? extends ZipEntry> entries = zip.entries();
      while (entries.hasMoreElements()) {
        ZipEntry entry = entries.nextElement();
        if (!entry.isDirectory()) {
          try (InputStream in = zip.getInputStream(entry)) {
            drain(in, 1);
          }
        }
      }
    } catch (ZipException | EOFException e) {
      throw new PermanentStepFailure(
          StepErrorTypes.CORRUPT_INPUT,
          "the document's ZIP package is damaged or cut short (its directory or a part cannot be"
              + " read)",
          e);
    }
  }

  /** Reads {@code in} to its end, counting; opens it as a package when it is one. */
  private void drain(InputStream in, int depth) throws IOException {
    PushbackInputStream peekable = new PushbackInputStream(in, LOCAL_HEADER.length);
    byte[] head = peekable.readNBytes(LOCAL_HEADER.length);
    peekable.unread(head);
    if (depth <= MAX_NESTING && Arrays.equals(head, LOCAL_HEADER)) {
      drainNested(peekable, depth);
    }
    // what a nested reading left (or the whole entry), counted as it is
    for (int n; (n = peekable.read(buffer)) > 0; ) {
      count(n);
    }
  }

  /** Counts the entries of a package stored as an entry of another one. */
  private void drainNested(InputStream in, int depth) throws IOException {
    ZipInputStream nested = new ZipInputStream(new CountingInput(in));
    int entries = 0;
    try {
      for (ZipEntry entry; (entry = nested.getNextEntry()) != null; ) {
        if (++entries > MAX_ENTRIES) {
          throw tooManyEntries();
        }
        drain(nested, depth + 1);
      }
    } catch (ZipException | EOFException e) {
      // a part that merely starts like a ZIP archive, or a broken embedded one (LibreOffice shows
      // its replacement picture): its bytes count as read, the rest is drained by the caller
    }
  }

  private void count(long bytes) {
    inflated += bytes;
    if (inflated > maxInflatedBytes) {
      throw new PermanentStepFailure(
          StepErrorTypes.INPUT_TOO_LARGE,
          "the document's ZIP package inflates to more than "
              + maxInflatedBytes / (1024 * 1024)
              + " MiB, the most an office conversion reads");
    }
  }

  private static PermanentStepFailure tooManyEntries() {
    return new PermanentStepFailure(
        StepErrorTypes.INPUT_TOO_LARGE,
        "the document's ZIP package has more than " + MAX_ENTRIES + " parts");
  }

  /** The compressed bytes a nested package is read from, counted as they pass. */
  private final class CountingInput extends FilterInputStream {
    CountingInput(InputStream in) {
      super(in);
    }

    @Override
    public int read() throws IOException {
      int b = super.read();
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      int n = super.read(b, off, len);
      if (n > 0) {
        count(n);
      }
      return n;
    }
  }
}
