package dev.derive.worker.office;

import dev.derive.worker.runtime.DeclarationContract;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * This worker accepts exactly what its declaration allows (issue 27): every declared operation and
 * parameter at its bounds reaches the transformer, everything just outside is refused {@code
 * invalid-step} by the runtime first ({@link DeclarationContract}).
 */
class DeclarationContractTest {
  @TestFactory
  Stream<DynamicTest> theRuntimeAcceptsExactlyWhatTheDeclarationAllows() {
    return DeclarationContract.ofThisWorker(Map.of());
  }
}
