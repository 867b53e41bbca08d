package dev.derive.coordinator.identity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.lifecycle.InMemoryObjects;
import dev.derive.coordinator.validate.SourceSpec;
import dev.derive.protocol.MediaTypes;
import java.nio.charset.StandardCharsets;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Identifying sources: their type from their bytes, a remembered identity reused only while the
 * source keeps its ETag.
 */
class SourceInspectorTest {
  private static final byte[] PNG = {
    (byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R'
  };

  private final InMemoryObjects objects = new InMemoryObjects();
  private final SourceInspector inspector =
      new SourceInspector(
          objects,
          new TikaMediaTypeDetector(
              Declarations.ALL.stream()
                  .flatMap(c -> c.reads().stream())
                  .collect(Collectors.toSet())),
          "sources",
          1_000_000,
          Declarations.ALL);

  @Test
  void aSourceReplacedUnderTheSameKeyIsIdentifiedAnew() {
    objects.put("sources", "a", PNG);
    SourceIdentity first = inspector.inspect(new SourceSpec("a", null));
    assertEquals(MediaTypes.IMAGE_PNG, first.mediaType());
    assertEquals(first, inspector.inspect(new SourceSpec("a", null)));

    byte[] text = "# a heading\n\nsome text\n".getBytes(StandardCharsets.UTF_8);
    objects.put("sources", "a", text);
    SourceIdentity second = inspector.inspect(new SourceSpec("a", null));
    assertNotEquals(first.etag(), second.etag());
    assertNotEquals(MediaTypes.IMAGE_PNG, second.mediaType());
    assertEquals(text.length, second.sizeBytes());
  }

  /** Its name says JPEG, but there are no bytes to be one: refused, not planned as an image. */
  @Test
  void anEmptySourceIsRefusedWhateverItsNameSays() {
    objects.put("sources", "photos/zero.jpg", new byte[0]);

    UnsupportedMediaTypeException refused =
        assertThrows(
            UnsupportedMediaTypeException.class,
            () -> inspector.inspect(new SourceSpec("photos/zero.jpg", null)));
    assertEquals("unsupported-media-type", refused.kind());
    assertEquals(
        "source object 'photos/zero.jpg' is empty (0 bytes): there is nothing to make a derivative"
            + " of",
        refused.getMessage());
  }

  /** Like an encrypted PDF's step, a protected Office document ends as password-required. */
  @Test
  void aPasswordProtectedSpreadsheetNeedsItsPassword() throws Exception {
    objects.put("sources", "budget.xlsx", ProtectedOoxml.xlsx("secret", 10));

    PasswordProtectedSourceException refused =
        assertThrows(
            PasswordProtectedSourceException.class,
            () -> inspector.inspect(new SourceSpec("budget.xlsx", null)));
    assertEquals("password-required", refused.kind());
  }

  /**
   * A real DOCX uploaded under a name that does not say DOCX: refused, saying that its bytes are an
   * Office Open XML package and that the name's extension must say which document it is, not
   * listing DOCX among the supported types as if it were something else (found by a newcomer's
   * trial).
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"doc.jpg", "doc.bin"})
  void aDocxWhoseNameDoesNotSaySoIsRefusedSayingTheNameMust(String name) throws Exception {
    String dir = System.getProperty("derive.samples", System.getenv("DERIVE_SAMPLES"));
    java.nio.file.Path docx =
        (dir == null
                ? java.nio.file.Path.of("../../../shared/samples")
                : java.nio.file.Path.of(dir))
            .resolve("documents/quick.docx");
    if (!java.nio.file.Files.isRegularFile(docx)) {
      throw new IllegalStateException(
          "sample corpus not found at "
              + docx.toAbsolutePath()
              + ": set -Dderive.samples=/path/to/samples or DERIVE_SAMPLES");
    }
    objects.put("sources", "uploads/" + name, java.nio.file.Files.readAllBytes(docx));

    UnsupportedMediaTypeException refused =
        assertThrows(
            UnsupportedMediaTypeException.class,
            () -> inspector.inspect(new SourceSpec("uploads/" + name, null)));

    assertEquals("unsupported-media-type", refused.kind());
    assertEquals(
        "the content of source object 'uploads/"
            + name
            + "' is not a supported media type: its bytes are an Office Open XML package (a Word,"
            + " Excel or PowerPoint document), which is read as a document only when its name's"
            + " extension says which kind (.docm, .docx, .pptx, .xlsx); the name '"
            + name
            + "' says none of them",
        refused.getMessage());
  }
}
