package dev.derive.infra.local.lambda;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.local.template.LayerDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A function's /opt folder: its layers extracted in order, reused while they are unchanged. */
class FunctionLayersTest {
  @TempDir Path dir;

  @Test
  void layersAreExtractedInOrderALaterOneReplacingAnEarlierOnesFiles() throws IOException {
    LayerDefinition first = layer("First", "first.zip", "lib/a.so", "first a", "lib/b.so", "b");
    LayerDefinition second = layer("Second", "second.zip", "lib/a.so", "second a");

    Path opt = FunctionLayers.opt("Fn", List.of(first, second), dir.resolve("opt"));

    assertThat(opt.resolve("lib/a.so")).hasContent("second a");
    assertThat(opt.resolve("lib/b.so")).hasContent("b");
    assertThat(FunctionLayers.opt("Fn", List.of(second, first), dir.resolve("opt2")))
        .satisfies(other -> assertThat(other.resolve("lib/a.so")).hasContent("first a"));
  }

  @Test
  void unchangedLayersAreNotExtractedAgainAndAChangedOneIs() throws IOException {
    LayerDefinition layer = layer("L", "l.zip", "lib/x", "v1");
    Path opt = FunctionLayers.opt("Fn", List.of(layer), dir.resolve("opt"));
    Files.writeString(opt.resolve("left-by-a-run"), "x");

    FunctionLayers.opt("Fn", List.of(layer), dir.resolve("opt"));
    assertThat(opt.resolve("left-by-a-run")).exists();

    layer("L", "l.zip", "lib/x", "v2");
    Files.setLastModifiedTime(layer.content(), FileTime.from(Instant.now().plusSeconds(5)));
    FunctionLayers.opt("Fn", List.of(layer), dir.resolve("opt"));
    assertThat(opt.resolve("left-by-a-run")).doesNotExist();
    assertThat(opt.resolve("lib/x")).hasContent("v2");
  }

  /** The FFmpeg layer's executables stay runnable, as Lambda keeps a zip entry's Unix mode. */
  @Test
  void anEntrysExecutableBitIsKeptAndAPlainFileStaysPlain() throws IOException {
    Path zip = dir.resolve("tools.zip");
    try (java.nio.file.FileSystem fs =
        java.nio.file.FileSystems.newFileSystem(
            zip, java.util.Map.of("create", "true", "enablePosixFileAttributes", "true"))) {
      Files.createDirectories(fs.getPath("/ffmpeg"));
      Files.writeString(fs.getPath("/ffmpeg/ffmpeg"), "#!/bin/sh\necho ran\n");
      Files.setPosixFilePermissions(
          fs.getPath("/ffmpeg/ffmpeg"),
          java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.writeString(fs.getPath("/ffmpeg/NOTICE"), "text");
      Files.setPosixFilePermissions(
          fs.getPath("/ffmpeg/NOTICE"),
          java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }

    Path opt =
        FunctionLayers.opt("Fn", List.of(new LayerDefinition("Tools", zip)), dir.resolve("opt"));

    assertThat(Files.isExecutable(opt.resolve("ffmpeg/ffmpeg"))).isTrue();
    assertThat(Files.isExecutable(opt.resolve("ffmpeg/NOTICE"))).isFalse();
  }

  @Test
  void withoutLayersTheFolderIsEmptyAsOptIsOnLambda() {
    Path opt = FunctionLayers.opt("Fn", List.of(), dir.resolve("opt"));

    assertThat(opt).isDirectory();
    assertThat(opt.resolve("lib")).doesNotExist();
  }

  @Test
  void aMissingLayerSaysToBuildIt() {
    LayerDefinition missing = new LayerDefinition("Gone", dir.resolve("gone.zip"));

    assertThatThrownBy(() -> FunctionLayers.opt("Fn", List.of(missing), dir.resolve("opt")))
        .isInstanceOf(FunctionStartException.class)
        .hasMessageContaining("the layer Gone of Fn")
        .hasMessageContaining("build it first");
  }

  @Test
  void pathsUnderOptAreMovedToTheLocalFolderOthersAreNot() {
    Path opt = Path.of("/work/.derive/layers/Fn");

    assertThat(FunctionLayers.localPath("/opt/lib", opt)).isEqualTo("/work/.derive/layers/Fn/lib");
    assertThat(FunctionLayers.localPath("/opt", opt)).isEqualTo("/work/.derive/layers/Fn");
    assertThat(FunctionLayers.localPath("/usr/lib:/opt/bin", opt))
        .isEqualTo("/usr/lib:/work/.derive/layers/Fn/bin");
    assertThat(FunctionLayers.localPath("/optional", opt)).isEqualTo("/optional");
    assertThat(FunctionLayers.localPath("-Dx=/opt/lib", opt)).isEqualTo("-Dx=/opt/lib");
  }

  /** Writes {@code name} holding the (path, content) pairs of {@code entries}. */
  private LayerDefinition layer(String id, String name, String... entries) throws IOException {
    Path zip = dir.resolve(name);
    try (ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(zip))) {
      for (int i = 0; i < entries.length; i += 2) {
        out.putNextEntry(new ZipEntry(entries[i]));
        out.write(entries[i + 1].getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
      }
    }
    return new LayerDefinition(id, zip);
  }
}
