package dev.derive.infra.local.template;

/**
 * Thrown when a template uses an intrinsic function the local cloud does not evaluate (it evaluates
 * {@value #SUPPORTED}). The local cloud refuses such a template rather than run it with a value it
 * did not compute.
 */
public class UnsupportedIntrinsicException extends TemplateException {
  /** The intrinsic functions the local cloud evaluates. */
  public static final String SUPPORTED =
      "Ref, Fn::GetAtt, Fn::Sub, Fn::If, Fn::Join, Fn::Select, Fn::Split, Fn::Equals, Fn::Not,"
          + " Fn::And, Fn::Or and Condition";

  private final String function;

  /**
   * @param function the intrinsic's long name, e.g. {@code Fn::FindInMap}
   * @param where where it occurs, e.g. a YAML position or a property path
   */
  public UnsupportedIntrinsicException(String function, String where) {
    super(
        "unsupported intrinsic function "
            + function
            + " at "
            + where
            + ": the local cloud evaluates only "
            + SUPPORTED);
    this.function = function;
  }

  /** The intrinsic's long name, e.g. {@code Fn::FindInMap}. */
  public String function() {
    return function;
  }
}
