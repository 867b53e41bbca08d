package dev.derive.coordinator.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.derive.coordinator.CoordinatorException;
import org.junit.jupiter.api.Test;

/**
 * The exception family is exhaustive: every concrete {@link CoordinatorException} of the
 * coordinator has its own problem status in {@link Problems}, so a new one cannot silently answer
 * 500 (issue 31).
 */
class ProblemTypesTest {
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

  @Test
  void everyDomainExceptionHasAProblemStatus() {
    var coordinator =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.derive.coordinator");
    classes()
        .that()
        .areAssignableTo(CoordinatorException.class)
        .and(CONCRETE)
        .should(MAPPED)
        .check(coordinator);
  }
}
