package dev.derive.worker.image;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.Operation;
import dev.derive.worker.runtime.CorpusFailures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every corpus image, as it is and damaged (cut short, scrambled), through the worker as a JPEG
 * thumbnail: whatever fails says so in a sentence, never with a Java class name (such as {@code
 * javax.imageio.IIOException: No SOF segment}) or an identity hash (issue 14 item 5).
 */
class ImageErrorDetailsCorpusTest {
  @TempDir Path temp;

  @Test
  void noErrorDetailNamesJavaInternals() throws IOException {
    List<Operation> thumbnail =
        List.of(TestImages.resize(64, 64), TestImages.encode(MediaTypes.IMAGE_JPEG, 80));
    List<CorpusFailures.Case> cases = new ArrayList<>();
    Map<String, String> files =
        CorpusFailures.manifestFiles(TestImages.DECLARATION.reads()::contains);
    for (Map.Entry<String, String> file : files.entrySet()) {
      cases.addAll(
          CorpusFailures.hostileVariants(
              file.getKey(), file.getValue(), thumbnail, MediaTypes.IMAGE_JPEG));
    }

    CorpusFailures.assertNoJavaInternals(
        CorpusFailures.run(new ImageTransformer(100_000_000), cases, temp));
  }
}
