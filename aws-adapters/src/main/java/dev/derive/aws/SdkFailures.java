package dev.derive.aws;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * A short human sentence for a failed AWS SDK call, for the detail of a job's error: a timeout, a
 * service that could not be reached, or a service's answer (its name, HTTP status and error code);
 * never the SDK's class names, the endpoint's address or the request. The adapters put it on the
 * exception they wrap the SDK's in, so that the logic that words errors names no AWS type.
 */
public final class SdkFailures {
  private SdkFailures() {}

  /**
   * The sentence for {@code failure} (no leading capital, no full stop), or {@code null} when it is
   * not a failure of the SDK's.
   */
  public static String describe(Throwable failure) {
    if (failure instanceof ApiCallTimeoutException
        || failure instanceof ApiCallAttemptTimeoutException) {
      return "a call to the storage or queue service timed out";
    }
    if (failure instanceof AwsServiceException service) {
      String serviceName =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().serviceName();
      String code =
          service.awsErrorDetails() == null ? null : service.awsErrorDetails().errorCode();
      return "the "
          + (serviceName == null ? "AWS" : serviceName)
          + " service answered HTTP "
          + service.statusCode()
          + (code == null || code.isBlank() ? "" : " (" + code + ")");
    }
    if (failure instanceof SdkClientException) {
      return "the storage or queue service could not be reached";
    }
    return null;
  }
}
