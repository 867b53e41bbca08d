package dev.derive.infra.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

class MotoServerEndpointTest {

  @Test
  void startsOnALoopbackPortAndServesS3UntilClosed(@TempDir Path dir) throws Exception {
    MotoServerEndpoint endpoint = MotoServerEndpoint.start(dir.resolve("moto.log"));
    try (S3Client s3 = AwsClients.s3(endpoint)) {
      assertThat(endpoint.uri().getHost()).isEqualTo("127.0.0.1");
      s3.createBucket(b -> b.bucket("probe"));
      s3.putObject(b -> b.bucket("probe").key("k"), RequestBody.fromString("hello"));
      assertThat(s3.getObjectAsBytes(b -> b.bucket("probe").key("k")).asUtf8String())
          .isEqualTo("hello");
    } finally {
      endpoint.close();
    }
    assertThat(endpoint.environment()).containsEntry("AWS_ENDPOINT_URL", endpoint.uri().toString());
  }
}
