package dev.derive.infra.local.template;

/**
 * Thrown when a template uses an intrinsic function the local cloud does not evaluate (only {@code
 * Ref}, {@code Fn::GetAtt} and {@code Fn::Sub} are supported). The local cloud refuses such a
 * template rather than run it with a value it did not compute.
 */
public class UnsupportedIntrinsicException extends TemplateException {
  private final String function;

  /**
   * @param function the intrinsic's long name, e.g. {@code Fn::Join}
   * @param where where it occurs, e.g. a YAML position or a property path
   */
  public UnsupportedIntrinsicException(String function, String where) {
    super(
        "unsupported intrinsic function "
            + function
            + " at "
            + where
            + ": the local cloud evaluates only Ref, Fn::GetAtt and Fn::Sub");
    this.function = function;
  }

  /** The intrinsic's long name, e.g. {@code Fn::Join}. */
  public String function() {
    return function;
  }
}
