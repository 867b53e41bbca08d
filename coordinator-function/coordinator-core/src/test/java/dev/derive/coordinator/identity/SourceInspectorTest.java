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
}
