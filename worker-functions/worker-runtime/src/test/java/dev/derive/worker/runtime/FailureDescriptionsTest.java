package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.derive.storage.ObjectStoreException;
import dev.derive.worker.runtime.report.ReportNotSentException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The last-error sentences of a step that failed on all its deliveries: human, no class names. */
class FailureDescriptionsTest {

  @Test
  void anOutOfMemoryErrorIsTheWorkerRunningOutOfMemoryWhereverItIsWrapped() {
    Throwable wrapped =
        new PermanentStepFailure(
            "corrupt-input", "cannot decode", new IOException(new OutOfMemoryError("heap")));

    assertThat(FailureDescriptions.describe(new OutOfMemoryError("Java heap space")))
        .isEqualTo("the worker ran out of memory");
    assertThat(FailureDescriptions.describe(wrapped)).isEqualTo("the worker ran out of memory");
    assertThat(FailureDescriptions.virtualMachineError(wrapped))
        .isInstanceOf(OutOfMemoryError.class);
  }

  @Test
  void aStackOverflowIsNamedAsSuch() {
    assertThat(FailureDescriptions.describe(new StackOverflowError()))
        .startsWith("the worker ran out of stack space");
  }

  /** A failed AWS call reads as its adapter worded it ({@code SdkFailuresTest}), wrapped or not. */
  @Test
  void aStoreOrQueueFailureReadsAsItsAdapterWordedIt() {
    assertThat(
            FailureDescriptions.describe(
                new ObjectStoreException(
                    "GetObject s3://b/k failed",
                    new IOException("503"),
                    "the S3 service answered HTTP 503 (SlowDown)")))
        .isEqualTo("the S3 service answered HTTP 503 (SlowDown)");
    assertThat(
            FailureDescriptions.describe(
                new ReportNotSentException(
                    "the storage or queue service could not be reached",
                    new IllegalStateException("Unable to execute HTTP request"))))
        .isEqualTo("the storage or queue service could not be reached");
    assertThat(
            FailureDescriptions.describe(
                new ObjectStoreException(
                    "GetObject s3://b/k failed", new IOException("No space left on device"))))
        .isEqualTo("a local input/output error: No space left on device");
  }

  @Test
  void classNamesAreStrippedFromOtherMessages() {
    String sentence =
        FailureDescriptions.describe(
            new IllegalStateException(
                "java.util.concurrent.RejectedExecutionException: pool closed\n\tat x.y.Z.run"));

    assertThat(sentence).isEqualTo("an unexpected error in the worker: pool closed");
    assertThat(FailureDescriptions.describe(new IOException("No space left on device")))
        .isEqualTo("a local input/output error: No space left on device");
  }

  @Test
  void aDetailThatLetALibrarysTextInKeepsOnlyTheSentenceBeforeIt() {
    assertThat(
            FailureDescriptions.forUser(
                "corrupt-input",
                "the document cannot be parsed: TIKA-198: Illegal IOException from"
                    + " org.apache.tika.parser.pdf.PDFParser@139696b4"))
        .isEqualTo("the document cannot be parsed");
    assertThat(
            FailureDescriptions.forUser(
                "corrupt-input", "cannot read the jpeg header: javax.imageio.IIOException: No SOF"))
        .isEqualTo("cannot read the jpeg header");
    assertThat(
            FailureDescriptions.forUser(
                "corrupt-input",
                "the AVIF file cannot be read: heifload input.tmp: /tmp/x/derive-step-1/input.tmp"))
        .isEqualTo("the AVIF file cannot be read");
  }

  @Test
  void aDetailThatIsAllInternalsBecomesTheSentenceOfItsType() {
    assertThat(
            FailureDescriptions.forUser(
                "corrupt-input", "java.lang.IndexOutOfBoundsException: index >= numImages"))
        .isEqualTo("the input is damaged or cut short and cannot be read");
    assertThat(FailureDescriptions.forUser("unsupported-input", null))
        .isEqualTo("the input uses a format or a feature this capability does not read");
  }

  @Test
  void aPlainSentenceIsKeptAsItIs() {
    String sentence = "page 3 is out of range: the PDF has 2 page(s)";

    assertThat(FailureDescriptions.forUser("invalid-step", sentence)).isEqualTo(sentence);
    assertThat(FailureDescriptions.forUser("corrupt-input", "the image/png file is empty"))
        .isEqualTo("the image/png file is empty");
  }

  @Test
  void aTransientFailuresMessageLosesItsInternals() {
    assertThat(
            FailureDescriptions.describe(
                new IllegalStateException("broken parser org.example.pdf.Parser@1a2b3c4d")))
        .isEqualTo("an unexpected error in the worker: broken parser");
  }

  @Test
  void aFailureWithoutVirtualMachineErrorHasNone() {
    assertThat(FailureDescriptions.virtualMachineError(new IOException("x"))).isNull();
  }
}
