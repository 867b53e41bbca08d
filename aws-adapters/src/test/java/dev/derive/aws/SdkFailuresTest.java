package dev.derive.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.derive.aws.s3.S3ObjectStore;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.storage.ObjectStoreException;
import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** The sentences a job's error reads for a failed SDK call: no class name, no address. */
class SdkFailuresTest {
  @Test
  void aServiceErrorNamesTheServiceAndItsAnswer() {
    S3Exception slowDown =
        (S3Exception)
            S3Exception.builder()
                .statusCode(503)
                .awsErrorDetails(
                    AwsErrorDetails.builder().serviceName("S3").errorCode("SlowDown").build())
                .message("Please reduce your request rate.")
                .build();

    assertThat(SdkFailures.describe(slowDown))
        .isEqualTo("the S3 service answered HTTP 503 (SlowDown)");
  }

  @Test
  void sdkTroubleReachingAwsAndTimeoutsAreNamedWithoutTheirClasses() {
    assertThat(
            SdkFailures.describe(
                SdkClientException.create("Unable to execute HTTP request: Connection refused")))
        .isEqualTo("the storage or queue service could not be reached");
    assertThat(SdkFailures.describe(ApiCallTimeoutException.create(10_000)))
        .isEqualTo("a call to the storage or queue service timed out");
  }

  /**
   * Through the S3 adapter, as a worker meets it: a store that cannot be reached says so on the
   * exception it throws, without the SDK's class name or the endpoint's address.
   */
  @Test
  void theS3AdapterPutsTheSentenceOnItsException() {
    AwsClients.Endpoint nowhere =
        new AwsClients.Endpoint(URI.create("http://127.0.0.1:9"), "us-east-1", "id", "secret");
    try (S3Client s3 =
        AwsClients.configure(S3Client.builder(), AwsClients.TOOLS, nowhere)
            .forcePathStyle(true)
            .build()) {
      ObjectStoreException thrown =
          catchThrowableOfType(
              ObjectStoreException.class,
              () -> new S3ObjectStore(s3).head(new ObjectRef("bucket", "key", null)));

      assertThat(thrown.description())
          .isEqualTo("the storage or queue service could not be reached");
    }
  }

  @Test
  void anythingElseIsNoSdkFailure() {
    assertThat(SdkFailures.describe(new IOException("No space left on device"))).isNull();
  }
}
