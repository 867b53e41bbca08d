package dev.derive.worker.runtime.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AWS at the edges (issue 16): the worker runtime's core speaks Derive's own types; the edges are
 * {@code aws} (the SQS adapters: SDK types), {@code lambda} (the handler and the batch's SQS edge:
 * Lambda's event types) and {@code cdi} (the wiring, which builds the SDK clients, and SnapStart
 * priming), plus the shared {@code dev.derive.aws} module. No two packages of the runtime depend on
 * each other in a cycle. And a delivery's state, which crosses threads, is held in values (issue 31
 * part 5): no field of the runtime outside its CDI wiring is ever reassigned.
 */
class WorkerRuntimeArchitectureTest {
  private static JavaClasses runtime;

  @BeforeAll
  static void importTheRuntime() {
    runtime =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.derive.worker.runtime");
  }

  @Test
  void seesTheCoreAndTheEdges() {
    assertThat(runtime.stream().map(JavaClass::getPackageName))
        .contains(
            "dev.derive.worker.runtime",
            "dev.derive.worker.runtime.aws",
            "dev.derive.worker.runtime.cdi",
            "dev.derive.worker.runtime.report");
  }

  @Test
  void onlyTheEdgesNameAwsSdkOrLambdaTypes() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.worker.runtime..")
        .and()
        .resideOutsideOfPackages(
            "dev.derive.worker.runtime.aws..",
            "dev.derive.worker.runtime.lambda..",
            "dev.derive.worker.runtime.cdi..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("software.amazon.awssdk..", "com.amazonaws..")
        .because("AWS and Lambda types stay at the edge")
        .check(runtime);
  }

  @Test
  void lambdaTypesOnlyAtTheLambdaEdge() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.worker.runtime..")
        .and()
        .resideOutsideOfPackage("dev.derive.worker.runtime.lambda..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("com.amazonaws..")
        .because("only the handler and the batch's SQS edge see Lambda's events and context")
        .check(runtime);
  }

  @Test
  void sdkTypesOnlyInTheAdaptersAndTheWiring() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.worker.runtime..")
        .and()
        .resideOutsideOfPackages(
            "dev.derive.worker.runtime.aws..", "dev.derive.worker.runtime.cdi..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("software.amazon.awssdk..")
        .because("the SQS adapters call the SDK and the wiring builds its clients; nothing else")
        .check(runtime);
  }

  @Test
  void noFieldIsReassignedOutsideTheWiring() {
    fields()
        .that()
        .areDeclaredInClassesThat()
        .resideInAPackage("dev.derive.worker.runtime..")
        .and()
        .areDeclaredInClassesThat()
        .resideOutsideOfPackage("dev.derive.worker.runtime.cdi..")
        .should()
        .beFinal()
        .because(
            "a delivery crosses three threads (the batch's, the step's and the output check's):"
                + " what it is and what it made are values (StepAttempt, StepProgress), what"
                + " changes lives in a concurrent type (WorkerHealth, OutputCheck)")
        .check(runtime);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.derive.worker.(**)").should().beFreeOfCycles().check(runtime);
  }
}
