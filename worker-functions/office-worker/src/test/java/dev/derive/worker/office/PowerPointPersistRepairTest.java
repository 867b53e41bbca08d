package dev.derive.worker.office;

import static dev.derive.worker.runtime.SampleCorpus.samples;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.apache.poi.hslf.record.UserEditAtom;
import org.apache.poi.hslf.usermodel.HSLFSlideShow;
import org.apache.poi.hslf.usermodel.HSLFSlideShowImpl;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link PowerPointPersistRepair} changes the persist identifier seed of a PowerPoint file whose
 * persist directory outnumbers it, and nothing else; every other file is left alone.
 */
class PowerPointPersistRepairTest {
  @TempDir Path dir;

  @Test
  void raisesTheSeedToTheHighestPersistIdAndChangesNothingElse() throws IOException {
    Path original = samples().resolve("office/pictures.ppt");
    Path repaired = dir.resolve("repaired.ppt");

    assertThat(PowerPointPersistRepair.repair(original, repaired)).isTrue();

    assertThat(lastUserEdit(original).getMaxPersistWritten()).isEqualTo(3);
    assertThat(lastUserEdit(repaired).getMaxPersistWritten()).isEqualTo(7);
    byte[] before = document(original);
    byte[] after = document(repaired);
    assertThat(after).hasSameSizeAs(before);
    int changed = 0;
    for (int i = 0; i < before.length; i++) {
      changed += before[i] == after[i] ? 0 : 1;
    }
    assertThat(changed).as("bytes of the PowerPoint Document stream changed").isEqualTo(1);
    assertThat(PowerPointPersistRepair.repair(repaired, dir.resolve("again.ppt")))
        .as("a mended file needs no repair")
        .isFalse();
  }

  @Test
  void leavesOtherDocumentsAlone() throws IOException {
    for (String sample :
        new String[] {
          "office/testWORD_3imgs.doc", // OLE2 without a PowerPoint Document stream
          "documents/quick.pptx", // a ZIP package
          "documents/sample.rtf",
          "documents/quick_corrupted.pptx"
        }) {
      Path target = dir.resolve("not-written");
      assertThat(PowerPointPersistRepair.repair(samples().resolve(sample), target))
          .as(sample)
          .isFalse();
      assertThat(target).doesNotExist();
    }
  }

  private static UserEditAtom lastUserEdit(Path ppt) throws IOException {
    try (HSLFSlideShowImpl show = new HSLFSlideShowImpl(ppt.toString())) {
      long offset = show.getCurrentUserAtom().getCurrentEditOffset();
      return java.util.Arrays.stream(show.getRecords())
          .filter(r -> r instanceof UserEditAtom u && u.getLastOnDiskOffset() == offset)
          .map(UserEditAtom.class::cast)
          .findFirst()
          .orElseThrow();
    }
  }

  private static byte[] document(Path ppt) throws IOException {
    try (POIFSFileSystem file = new POIFSFileSystem(ppt.toFile(), true);
        InputStream in =
            file.getRoot().createDocumentInputStream(HSLFSlideShow.POWERPOINT_DOCUMENT)) {
      return in.readAllBytes();
    }
  }
}
