package dev.derive.coordinator.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.derive.coordinator.validate.Violation;
import java.util.List;

/**
 * An RFC 9457 problem details object ({@code application/problem+json}).
 *
 * @param type URI naming the kind of problem, stable per kind
 * @param title short summary of the kind
 * @param status HTTP status code
 * @param detail explanation of this occurrence, naming the field when one is at fault
 * @param errors for invalid requests: each violation with its JSON pointer (an RFC 9457 extension
 *     member)
 * @param reachable for {@code no-conversion}: the target media types reachable from the source (an
 *     extension member)
 * @param id for a job's problem (it failed, or is not done): the job id, as {@code
 *     /v1/derivatives/{id}} takes it (an extension member)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(
    String type,
    String title,
    int status,
    String detail,
    List<Violation> errors,
    List<String> reachable,
    String id) {
  /** A problem about no job. */
  public Problem(
      String type,
      String title,
      int status,
      String detail,
      List<Violation> errors,
      List<String> reachable) {
    this(type, title, status, detail, errors, reachable, null);
  }
}
