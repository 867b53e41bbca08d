package dev.derive.worker.markup;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepError;
import dev.derive.worker.runtime.CorpusFailures;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every corpus file the markup capability reads, as it is and damaged, through the worker, and once
 * more under an output limit too small for any of them (markup is read leniently, so the limit is
 * what makes them fail): whatever fails says so in a sentence, never with a Java class name or an
 * identity hash (issue 14 item 5).
 */
class MarkupErrorDetailsCorpusTest {
  @TempDir Path temp;

  @Test
  void noErrorDetailNamesJavaInternals() throws IOException {
    List<CorpusFailures.Case> cases = new ArrayList<>();
    List<Operation> render = List.of(new Operation(MarkupTransformer.RENDER, Map.of()));
    Map<String, String> files =
        CorpusFailures.manifestFiles(
            CapabilityDeclarations.ofThisWorker(MarkupErrorDetailsCorpusTest.class.getClassLoader())
                    .reads()
                ::contains);
    for (Map.Entry<String, String> file : files.entrySet()) {
      cases.addAll(
          CorpusFailures.hostileVariants(
              file.getKey(), file.getValue(), render, MediaTypes.APPLICATION_PDF));
    }

    Map<String, StepError> failures = new LinkedHashMap<>();
    failures.putAll(
        CorpusFailures.run(
            new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES), cases, temp));
    CorpusFailures.run(new MarkupTransformer(1_000), cases, temp)
        .forEach((name, error) -> failures.put(name + " (1,000-byte limit)", error));

    CorpusFailures.assertNoJavaInternals(failures);
  }
}
