package dev.derive.worker.text;

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
 * Every corpus file the text capability reads, as it is and damaged, through the worker: whatever
 * fails says so in a sentence, never with a Java class name or an identity hash (issue 14 item 5).
 */
class TextErrorDetailsCorpusTest {
  @TempDir Path temp;

  @Test
  void noErrorDetailNamesJavaInternals() throws IOException {
    List<CorpusFailures.Case> cases = new ArrayList<>();
    Map<String, String> files =
        CorpusFailures.manifestFiles(
            CapabilityDeclarations.ofThisWorker(TextErrorDetailsCorpusTest.class.getClassLoader())
                    .reads()
                ::contains);
    for (Map.Entry<String, String> file : files.entrySet()) {
      cases.addAll(
          CorpusFailures.hostileVariants(
              file.getKey(),
              file.getValue(),
              List.of(new Operation(TextTransformer.EXTRACT, Map.of())),
              MediaTypes.TEXT_PLAIN + "; charset=utf-8"));
      cases.addAll(
          CorpusFailures.hostileVariants(
              file.getKey(),
              file.getValue(),
              List.of(new Operation(TextTransformer.METADATA, Map.of())),
              MediaTypes.APPLICATION_JSON));
    }

    CorpusFailures.assertNoJavaInternals(
        CorpusFailures.run(
            new TextTransformer(TextTransformer.DEFAULT_MAX_TEXT_BYTES), cases, temp));
  }
}
