package dev.derive.coordinator.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.derive.aws.AwsClients;
import dev.derive.coordinator.aws.CallbackProducers;
import dev.derive.coordinator.aws.CoordinatorClients;
import dev.derive.coordinator.aws.CoordinatorProducers;
import dev.derive.coordinator.aws.ImageUrlProducers;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * AWS at the edges (issue 16): the coordinator's logic speaks Derive's own types; only {@code
 * dev.derive.coordinator.aws} (the DynamoDB, SQS, EventBridge, SSM and Secrets Manager adapters and
 * the factory that wires them) names AWS SDK or Lambda types. And no two packages of the core
 * depend on each other in a cycle. Clients are built in one place, {@link CoordinatorClients}, so
 * every part of a function shares one client per service.
 */
class CoordinatorCoreArchitectureTest {
  private static JavaClasses core;

  @BeforeAll
  static void importTheCore() {
    core =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.derive.coordinator");
  }

  @Test
  void seesTheLogicAndTheAdapters() {
    assertThat(core.stream().map(c -> c.getPackageName()))
        .contains(
            "dev.derive.coordinator.aws",
            "dev.derive.coordinator.lifecycle",
            "dev.derive.coordinator.plan",
            "dev.derive.coordinator.claim");
  }

  @Test
  void onlyTheAwsPackageNamesAwsSdkOrLambdaTypes() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.coordinator..")
        .and()
        .resideOutsideOfPackage("dev.derive.coordinator.aws..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("software.amazon.awssdk..", "com.amazonaws..")
        .because("AWS types stay at the edge, in dev.derive.coordinator.aws")
        .check(core);
  }

  @Test
  void onlyCoordinatorClientsBuildsAwsClients() {
    DescribedPredicate<JavaCall<?>> buildsAClient =
        new DescribedPredicate<>("builds an AWS SDK client or presigner") {
          @Override
          public boolean test(JavaCall<?> call) {
            JavaClass owner = call.getTargetOwner();
            String name = call.getName();
            return name.equals("builder")
                    && (owner.isAssignableTo("software.amazon.awssdk.core.SdkClient")
                        || owner.isAssignableTo(
                            "software.amazon.awssdk.services.s3.presigner.S3Presigner"))
                || owner.getName().equals(AwsClients.class.getName())
                    && (name.equals("configure") || name.equals("s3Presigner"));
          }
        };
    noClasses()
        .that()
        .resideInAPackage("dev.derive.coordinator..")
        .and()
        .doNotHaveFullyQualifiedName(CoordinatorClients.class.getName())
        .should()
        .callMethodWhere(buildsAClient)
        .because("a function holds one client per AWS service, shared by every part (issue 31)")
        .check(core);
  }

  /** The composition root: the producers, the only classes handed the function's clients. */
  static final String[] COMPOSITION_ROOT = {
    CoordinatorProducers.class.getName(),
    CallbackProducers.class.getName(),
    ImageUrlProducers.class.getName(),
    CoordinatorClients.class.getName()
  };

  @Test
  void onlyTheCompositionRootIsHandedTheClients() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.coordinator..")
        .and()
        .doNotHaveFullyQualifiedName(COMPOSITION_ROOT[0])
        .and()
        .doNotHaveFullyQualifiedName(COMPOSITION_ROOT[1])
        .and()
        .doNotHaveFullyQualifiedName(COMPOSITION_ROOT[2])
        .and()
        .doNotHaveFullyQualifiedName(COMPOSITION_ROOT[3])
        .should()
        .dependOnClassesThat()
        .haveFullyQualifiedName(CoordinatorClients.class.getName())
        .because(
            "parts are given what they use; only the composition root wires clients (issue 31)")
        .check(core);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.derive.(**)").should().beFreeOfCycles().check(core);
  }
}
