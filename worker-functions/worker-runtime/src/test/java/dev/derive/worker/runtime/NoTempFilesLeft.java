package dev.derive.worker.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's proof that its transformations leave nothing in the JVM's temp folder: the files
 * there before its first test ({@link SampleCorpus#tempFiles}) must still be all there is after its
 * last. For the corpus suites, with {@code @ExtendWith(NoTempFilesLeft.class)}, or, for a suite
 * whose own set-up leaves files there for good (a LibreOffice started once per JVM), with
 * {@code @RegisterExtension static final NoTempFilesLeft … = NoTempFilesLeft.after(setUp)}.
 */
public final class NoTempFilesLeft implements BeforeAllCallback, AfterAllCallback {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(NoTempFilesLeft.class);

  private final Runnable setUp;

  /** The check alone (for {@code @ExtendWith}). */
  public NoTempFilesLeft() {
    this(() -> {});
  }

  private NoTempFilesLeft(Runnable setUp) {
    this.setUp = setUp;
  }

  /** The check, with {@code setUp} run before the temp folder is first listed. */
  public static NoTempFilesLeft after(Runnable setUp) {
    return new NoTempFilesLeft(setUp);
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    setUp.run();
    context.getStore(NAMESPACE).put("before", SampleCorpus.tempFiles());
  }

  @Override
  @SuppressWarnings("unchecked")
  public void afterAll(ExtensionContext context) throws Exception {
    Set<Path> before = (Set<Path>) context.getStore(NAMESPACE).get("before");
    assertThat(SampleCorpus.tempFiles()).as("files left in java.io.tmpdir").isSubsetOf(before);
  }
}
