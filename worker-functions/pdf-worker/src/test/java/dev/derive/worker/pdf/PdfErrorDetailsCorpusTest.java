package dev.derive.worker.pdf;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
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
 * Every corpus file the pdf capability reads, as it is and damaged, through the worker (a page
 * render and the metadata): whatever fails says so in a sentence, never with a Java class name or
 * an identity hash (issue 14 item 5).
 */
class PdfErrorDetailsCorpusTest {
  @TempDir Path temp;

  @Test
  void noErrorDetailNamesJavaInternals() throws IOException {
    List<CorpusFailures.Case> cases = new ArrayList<>();
    Map<String, String> files =
        CorpusFailures.manifestFiles(
            CapabilityDeclarations.ofThisWorker(PdfErrorDetailsCorpusTest.class.getClassLoader())
                    .reads()
                ::contains);
    for (String file : files.keySet()) {
      cases.addAll(
          CorpusFailures.hostileVariants(
              file,
              MediaTypes.APPLICATION_PDF,
              List.of(new Operation(PdfTransformer.RENDER, Map.of("dpi", 36))),
              MediaTypes.IMAGE_PNG));
      cases.addAll(
          CorpusFailures.hostileVariants(
              file,
              MediaTypes.APPLICATION_PDF,
              List.of(new Operation(PdfTransformer.METADATA, Map.of())),
              MediaTypes.APPLICATION_JSON));
    }

    CorpusFailures.assertNoJavaInternals(
        CorpusFailures.run(new PdfTransformer(100_000_000), cases, temp));
  }
}
