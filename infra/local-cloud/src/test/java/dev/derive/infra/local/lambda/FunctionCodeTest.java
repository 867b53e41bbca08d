package dev.derive.infra.local.lambda;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extraction of a function's zip into its task root, and its reuse while the zip is unchanged. */
class FunctionCodeTest {
  @TempDir Path dir;

  @Test
  void anUnchangedZipIsNotExtractedAgainAndAChangedOneIs() throws IOException {
    Path zip = zip("Handler.class", "v1");
    Path root = FunctionCode.taskRoot("Fn", zip, dir.resolve("fn"));
    Files.writeString(root.resolve("left-by-a-run"), "x");

    Path again = FunctionCode.taskRoot("Fn", zip, dir.resolve("fn"));
    assertThat(again.resolve("left-by-a-run")).exists();

    zip("Handler.class", "v2");
    Files.setLastModifiedTime(zip, FileTime.from(Instant.now().plusSeconds(5)));
    Path rebuilt = FunctionCode.taskRoot("Fn", zip, dir.resolve("fn"));
    assertThat(rebuilt.resolve("left-by-a-run")).doesNotExist();
    assertThat(rebuilt.resolve("Handler.class")).hasContent("v2");
  }

  private Path zip(String entry, String content) throws IOException {
    Path zip = dir.resolve("function.zip");
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
      out.putNextEntry(new ZipEntry(entry));
      out.write(content.getBytes(StandardCharsets.UTF_8));
      out.closeEntry();
    }
    return zip;
  }
}
