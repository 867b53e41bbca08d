package dev.derive.storage;

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
 * The object store seam is in Derive's own types, so the coordinator's and the workers' logic can
 * use it without naming AWS; only {@code dev.derive.aws..} does, and nothing here depends back on
 * it.
 */
class StorageArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importTheModule() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.derive.storage", "dev.derive.aws");
  }

  @Test
  void seesTheSeamAndItsAdapters() {
    assertThat(classes.stream().map(JavaClass::getPackageName))
        .contains("dev.derive.storage", "dev.derive.aws", "dev.derive.aws.s3");
  }

  @Test
  void theSeamNamesNoAwsTypeAndNoAdapter() {
    noClasses()
        .that()
        .resideInAPackage("dev.derive.storage..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("software.amazon.awssdk..", "com.amazonaws..", "dev.derive.aws..")
        .check(classes);
  }

  @Test
  void noPackageCycles() {
    slices().matching("dev.derive.(**)").should().beFreeOfCycles().check(classes);
  }
}
