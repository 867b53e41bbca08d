package dev.derive.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Coordination–execution separation, enforced: the coordinator and the workers share only {@code
 * dev.derive.protocol}, and the protocol depends on neither nor on AWS.
 */
class ArchitectureTest {
  /**
   * Test fixtures this module takes from other modules' test-jars (the worker runtime's) are tests,
   * not parts of a function, though they sit in the functions' packages.
   */
  private static final ImportOption DO_NOT_INCLUDE_TEST_JARS =
      location -> !location.contains("-tests.jar");

  private static JavaClasses classes;

  @BeforeAll
  static void importDerive() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(DO_NOT_INCLUDE_TEST_JARS)
            .importPackages("dev.derive");
  }

  @Test
  void seesTheCoordinatorTheWorkersAndTheProtocol() {
    assertThat(classes.stream().map(c -> c.getPackageName()))
        .anyMatch(p -> p.startsWith("dev.derive.coordinator.api"))
        .anyMatch(p -> p.startsWith("dev.derive.coordinator.progress"))
        .anyMatch(p -> p.startsWith("dev.derive.worker.runtime"))
        .anyMatch(p -> p.startsWith("dev.derive.worker.image"))
        .anyMatch(p -> p.startsWith("dev.derive.protocol"));
  }

  /**
   * The coordinator functions (core, API, progress) read settings through {@code CoordinatorConfig}
   * only, and only the composition root (coordinator-core's producers) is handed the function's AWS
   * clients (issue 31 items 1 and 2).
   */
  @Test
  void theCoordinatorFunctionsReadOneConfigurationAndShareOneCompositionRoot() {
    String root = "dev.derive.coordinator.aws.";
    noClasses()
        .that()
        .resideInAPackage("dev.derive.coordinator..")
        .and()
        .resideOutsideOfPackage("dev.derive.coordinator.config..")
        .and()
        .doNotHaveFullyQualifiedName(root + "CoordinatorProducers")
        .should()
        .callMethod(System.class, "getenv", String.class)
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.eclipse.microprofile.config.ConfigProvider")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.eclipse.microprofile.config.Config")
        .orShould()
        .dependOnClassesThat()
        .haveFullyQualifiedName("org.eclipse.microprofile.config.inject.ConfigProperty")
        .because("one configuration mapping, validated at start")
        .check(classes);
    noClasses()
        .that()
        .resideInAnyPackage("dev.derive.coordinator.api..", "dev.derive.coordinator.progress..")
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(root + "CoordinatorClients")
        .orShould()
        .dependOnClassesThat()
        .haveSimpleNameEndingWith("ClientBuilder")
        .because("a function's clients are built and handed out in its composition root only")
        .check(classes);
  }

  @Test
  void theCoordinatorDoesNotDependOnWorkers() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.coordinator..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.derive.worker..")
        .check(classes);
  }

  @Test
  void workersDoNotDependOnTheCoordinator() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.worker..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.derive.coordinator..")
        .check(classes);
  }

  @Test
  void workersDoNotDependOnEachOther() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.worker.image..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.derive.worker.pdf..", "dev.derive.worker.text..", "dev.derive.worker.markup..")
        .check(classes);
  }

  @Test
  void theProtocolDependsOnNeitherSideNorOnAws() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.protocol..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.derive.coordinator..",
            "dev.derive.worker..",
            "dev.derive.infra..",
            "software.amazon..")
        .check(classes);
  }

  @Test
  void functionsDoNotDependOnTheLocalCloud() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.derive.coordinator..", "dev.derive.worker..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.derive.infra..")
        .check(classes);
  }
}
