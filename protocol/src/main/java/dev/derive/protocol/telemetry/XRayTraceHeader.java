package dev.derive.protocol.telemetry;

/**
 * The X-Ray trace header of the current Lambda invocation ({@code Root=1-…;Parent=…;Sampled=…}):
 * the Java runtime sets the system property {@value #PROPERTY} for each invocation (from the
 * Runtime API's {@code Lambda-Runtime-Trace-Id}); {@value #VARIABLE} is the same for runtimes that
 * set the environment instead. Sent on as the {@code AWSTraceHeader} system attribute of each SQS
 * message, it lets X-Ray join the API's, the workers' and the progress function's segments of one
 * job into one trace.
 */
public final class XRayTraceHeader {
  /** The system property the Lambda Java runtime sets per invocation. */
  public static final String PROPERTY = "com.amazonaws.xray.traceHeader";

  /** The environment variable of the same value. */
  public static final String VARIABLE = "_X_AMZN_TRACE_ID";

  /** The SQS message system attribute that carries it. */
  public static final String SQS_ATTRIBUTE = "AWSTraceHeader";

  private XRayTraceHeader() {}

  /** The current invocation's trace header, or {@code null} outside an invocation. */
  public static String current() {
    String header = System.getProperty(PROPERTY);
    if (header == null || header.isBlank()) {
      header = System.getenv(VARIABLE);
    }
    return header == null || header.isBlank() ? null : header;
  }
}
