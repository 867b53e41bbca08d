package dev.derive.worker.runtime;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** The runtime keeps the declaration contract for every kind of declaration it can check. */
class DeclarationContractTest {
  @TestFactory
  Stream<DynamicTest> theRuntimeAcceptsExactlyWhatTheDeclarationAllows() {
    return DeclarationContract.of(TestDeclarations.everyKind(), Map.of("#[0-9a-f]{6}", "#a0b1c2"));
  }
}
