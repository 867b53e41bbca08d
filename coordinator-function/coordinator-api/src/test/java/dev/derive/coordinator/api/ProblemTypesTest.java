package dev.derive.coordinator.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.ArchConfiguration;
import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.derive.coordinator.CoordinatorException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The exception family is exhaustive: every concrete {@link CoordinatorException} of the
 * coordinator has its own problem status in {@link Problems}, so a new one cannot silently answer
 * 500 (issue 31).
 */
class ProblemTypesTest {
  /** The coordinator's own package; every domain exception lives under it. */
  private static final String COORDINATOR = "dev.derive.coordinator";

  private static final DescribedPredicate<JavaClass> CONCRETE =
      DescribedPredicate.describe(
          "concrete", c -> !c.getModifiers().contains(JavaModifier.ABSTRACT) && !c.isInterface());

  private static final ArchCondition<JavaClass> MAPPED =
      new ArchCondition<>("have a problem status in Problems") {
        @Override
        public void check(JavaClass type, ConditionEvents events) {
          boolean mapped =
              Problems.mapped().stream().anyMatch(m -> m.getName().equals(type.getName()));
          events.add(
              new SimpleConditionEvent(
                  type,
                  mapped,
                  type.getName() + (mapped ? " has" : " has no") + " problem status in Problems"));
        }
      };

  private static final ArchRule EXHAUSTIVE =
      classes()
          .that()
          .areAssignableTo(CoordinatorException.class)
          .and(CONCRETE)
          .should(MAPPED)
          .allowEmptyShould(false);

  @Test
  void everyDomainExceptionHasAProblemStatus() {
    JavaClasses coordinator = coordinatorClasses();
    assertThat(coordinator.contain(CoordinatorException.class))
        .as("the import holds the exception family's base")
        .isTrue();
    EXHAUSTIVE.check(coordinator);
  }

  @Test
  void aConcreteExceptionWithoutAProblemStatusBreaksTheRule() {
    JavaClasses withUnmapped =
        new ClassFileImporter().importClasses(CoordinatorException.class, UnmappedException.class);

    EvaluationResult result = EXHAUSTIVE.evaluate(withUnmapped);

    assertThat(result.hasViolation()).isTrue();
    assertThat(result.getFailureReport().getDetails())
        .anyMatch(
            line -> line.contains(UnmappedException.class.getName() + " has no problem status"));
  }

  /**
   * The coordinator's main classes, and only them: the folders or jars on the class path that hold
   * {@value #COORDINATOR} (the coordinator modules), without resolving the classes they refer to
   * from the rest of the class path (the SDK, Quarkus, Jackson...), which is what made a plain
   * {@code importPackages} take most of a minute. The family's hierarchy is inside those modules.
   */
  private static JavaClasses coordinatorClasses() {
    List<URL> locations;
    try {
      locations =
          Collections.list(
              ProblemTypesTest.class.getClassLoader().getResources(COORDINATOR.replace('.', '/')));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the class path's " + COORDINATOR, e);
    }
    ArchConfiguration configuration = ArchConfiguration.get();
    boolean resolve = configuration.resolveMissingDependenciesFromClassPath();
    configuration.setResolveMissingDependenciesFromClassPath(false);
    try {
      return new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importUrls(locations);
    } finally {
      configuration.setResolveMissingDependenciesFromClassPath(resolve);
    }
  }

  /** A domain exception nobody gave a problem status: the rule must name it. */
  static final class UnmappedException extends CoordinatorException {
    UnmappedException() {
      super("unmapped", "a test's exception without a problem status");
    }
  }
}
