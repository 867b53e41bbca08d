package dev.derive.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Coordination–execution separation, enforced: the coordinator and the workers share only {@code
 * dev.derive.protocol}, and the protocol depends on neither nor on AWS. And every function logs
 * through one API, {@link System.Logger} (issue 31).
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

  /**
   * One logging API in every function: {@link System.Logger}, which needs no framework (the
   * coordinator's core stays free of Quarkus) and ends, like every other, in Quarkus' JBoss
   * LogManager and its JSON lines. JBoss Logging's {@code MDC} stays allowed: it is where the
   * correlation fields live ({@code dev.derive.protocol.telemetry.Correlation}). {@code
   * java.util.logging.Level} stays allowed for a library's logger interface that names it
   * (openhtmltopdf's {@code XRLogger}).
   */
  @Test
  void functionsLogThroughSystemLoggerOnly() {
    DescribedPredicate<JavaClass> anotherLoggingApi =
        new DescribedPredicate<>(
            "a logging API other than System.Logger (JUL's Logger, JBoss Logging, SLF4J, Log4j,"
                + " Commons Logging, Quarkus' Log)") {
          @Override
          public boolean test(JavaClass type) {
            String name = type.getName();
            String pkg = type.getPackageName();
            return name.equals("java.util.logging.Logger")
                || name.equals("java.util.logging.LogManager")
                || pkg.equals("org.jboss.logging") && !name.equals("org.jboss.logging.MDC")
                || pkg.startsWith("org.slf4j")
                || pkg.startsWith("org.apache.logging.log4j")
                || pkg.startsWith("org.apache.commons.logging")
                || pkg.startsWith("io.quarkus.logging");
          }
        };
    noClasses()
        .that()
        .resideInAnyPackage(
            "dev.derive.coordinator..", "dev.derive.worker..", "dev.derive.protocol..")
        .should()
        .dependOnClassesThat(anotherLoggingApi)
        .because("one logging API: System.Logger (docs/observability.md)")
        .check(classes);
  }
}
