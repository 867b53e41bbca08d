package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import dev.derive.protocol.capability.CapabilityDeclarations;
import dev.derive.protocol.capability.CapabilityDescriptor;
import dev.derive.protocol.message.MessageCodec;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepError;
import dev.derive.protocol.message.StepMessage;
import dev.derive.protocol.message.StepResult;
import dev.derive.worker.runtime.lambda.StepBatchProcessor;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Runs corpus files, and damaged copies of them, through a capability the way a worker does (a
 * {@link StepBatchProcessor} on an in-memory store), and collects the errors the coordinator would
 * be told, to prove that none of them names Java internals (issue 14 item 5).
 */
public final class CorpusFailures {
  /**
   * What must never reach a user: a qualified Java name ({@code javax.imageio.IIOException}, {@code
   * java.lang.IndexOutOfBoundsException}), an exception class's simple name, an identity hash
   * ({@code PDFParser@139696b4}), a stack frame or the worker's scratch files ({@code
   * /tmp/…/derive-step-…/input.tmp}, as libvips names the file it read).
   */
  public static final Pattern JAVA_INTERNALS =
      Pattern.compile(
          "\\b[a-z][a-z0-9_]*(?:\\.[a-z0-9_]+)+\\.[A-Z][\\w$]*"
              + "|[A-Z][\\w$]*(?:Exception|Error)\\b"
              + "|@[0-9a-f]{6,}\\b"
              + "|\\bat [\\w$.]+\\("
              + "|/tmp/|derive-step-|\\binput\\.tmp\\b");

  /**
   * One step to run.
   *
   * @param name how the case is named in failures (e.g. {@code png/xcrn0g04.png (first half)})
   * @param bytes the input
   * @param mediaType the input media type the coordinator would send
   * @param operations the step's operations
   * @param outputMediaType the step's output media type
   */
  public record Case(
      String name,
      byte[] bytes,
      String mediaType,
      List<Operation> operations,
      String outputMediaType) {}

  private CorpusFailures() {}

  /**
   * The corpus files whose manifest media type (its essence, without parameters) {@code reads}
   * accepts, as {@code path -> media type}.
   */
  public static Map<String, String> manifestFiles(Predicate<String> reads) throws IOException {
    Map<String, String> files = new LinkedHashMap<>();
    for (String line :
        Files.readAllLines(SampleCorpus.samples().resolve("MANIFEST.tsv")).stream()
            .skip(1)
            .toList()) {
      String[] cells = line.split("\t");
      String essence = cells[1].split(";")[0].trim();
      if (reads.test(essence)) {
        files.put(cells[0], essence);
      }
    }
    return files;
  }

  /**
   * {@code sample} as it is and damaged: cut to its first half, to its first 64 bytes, and with its
   * second half overwritten by a repeating byte pattern.
   */
  public static List<Case> hostileVariants(
      String sample, String mediaType, List<Operation> operations, String outputMediaType)
      throws IOException {
    byte[] whole = Files.readAllBytes(SampleCorpus.samples().resolve(sample));
    byte[] scrambled = whole.clone();
    for (int i = whole.length / 2; i < whole.length; i++) {
      scrambled[i] = (byte) (i * 31 + 7);
    }
    return List.of(
        new Case(sample, whole, mediaType, operations, outputMediaType),
        new Case(
            sample + " (first half)",
            Arrays.copyOf(whole, whole.length / 2),
            mediaType,
            operations,
            outputMediaType),
        new Case(
            sample + " (first 64 bytes)",
            Arrays.copyOf(whole, Math.min(64, whole.length)),
            mediaType,
            operations,
            outputMediaType),
        new Case(
            sample + " (second half scrambled)",
            scrambled,
            mediaType,
            operations,
            outputMediaType));
  }

  /**
   * Runs every case as one step through a {@link StepBatchProcessor} of {@code transformer} (temp
   * files under {@code temp}) and returns the error each failed case reported, by case name.
   */
  public static Map<String, StepError> run(
      StepTransformer transformer, List<Case> cases, Path temp) {
    InMemoryObjectStore store = new InMemoryObjectStore();
    List<StepResult> published = new ArrayList<>();
    CapabilityDescriptor declaration =
        CapabilityDeclarations.ofThisWorker(transformer.getClass().getClassLoader());
    StepBatchProcessor processor =
        new StepBatchProcessor(
            new StepWorker(
                declaration,
                transformer,
                store,
                published::add,
                // one delivery: a transient failure is reported (worker-failed), not handed back
                new WorkerSettings("http://queue", 200L << 20, 1_000, temp, 1),
                new StepLog(
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)),
                Clock.systemUTC(),
                reason -> {}));
    Map<String, StepError> failures = new LinkedHashMap<>();
    for (int i = 0; i < cases.size(); i++) {
      Case c = cases.get(i);
      String jobId = String.format("%064x", i + 1);
      ObjectRef input = ObjectRef.of("source", "corpus/" + i);
      store.put(input, c.bytes());
      StepMessage step =
          new StepMessage(
              jobId,
              0,
              1,
              declaration.name(),
              c.operations(),
              input,
              c.mediaType(),
              ObjectRef.of("derivatives", "derivatives/" + jobId),
              c.outputMediaType(),
              "corpus");
      SQSMessage record = new SQSMessage();
      record.setMessageId("m" + i);
      record.setBody(MessageCodec.encode(step));
      SQSEvent event = new SQSEvent();
      event.setRecords(List.of(record));
      published.clear();
      processor.process(event, null);
      published.stream()
          .filter(r -> !r.isStarted() && !r.succeeded())
          .findFirst()
          .ifPresent(r -> failures.put(c.name(), r.error()));
    }
    return failures;
  }

  /**
   * Asserts that {@code failures} is not empty (damaged files must fail, or the check proves
   * nothing) and that no detail names Java internals ({@link #JAVA_INTERNALS}).
   */
  public static void assertNoJavaInternals(Map<String, StepError> failures) {
    assertThat(failures).as("damaged inputs that failed").isNotEmpty();
    failures.forEach(
        (n, e) -> System.out.println("DETAIL " + n + " => " + e.type() + ": " + e.detail()));
    Map<String, String> offending = new LinkedHashMap<>();
    failures.forEach(
        (name, error) -> {
          if (error.detail() == null || JAVA_INTERNALS.matcher(error.detail()).find()) {
            offending.put(name, error.type() + ": " + error.detail());
          }
        });
    assertThat(offending).as("error details that name Java internals").isEmpty();
  }
}
