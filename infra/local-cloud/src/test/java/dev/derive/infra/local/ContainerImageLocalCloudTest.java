package dev.derive.infra.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.infra.endpoint.AwsClients;
import dev.derive.infra.endpoint.MotoServerEndpoint;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * A container-image function ({@code PackageType: Image}) runs in the local cloud from the
 * function.zip its Dockerfile copies in, on this machine's JVM, with the handler its {@code
 * ImageConfig.Command} names, like a zip function: over HTTP and from its SQS queue, beside a zip
 * function that names its own {@code Runtime} and {@code Handler}.
 */
class ContainerImageLocalCloudTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static MotoServerEndpoint endpoint;
  private static LocalCloud cloud;

  @BeforeAll
  static void start() throws Exception {
    Path context = dir.resolve("images/echo");
    Files.createDirectories(context.resolve("build"));
    TestFunctionPackage.write(context.resolve("build/function.zip"));
    TestFunctionPackage.write(dir.resolve("function.zip"));
    Files.writeString(
        context.resolve("Dockerfile"),
        """
        FROM eclipse-temurin:25-jdk AS function
        COPY build/function.zip /tmp/function.zip
        RUN mkdir /task && cd /task && jar xf /tmp/function.zip
        FROM debian:bookworm-slim
        COPY --from=function /task/ /var/task/
        ENTRYPOINT ["/opt/java/openjdk/bin/java", "-cp", "/var/task:/var/task/lib/*", \\
            "com.amazonaws.services.lambda.runtime.api.client.AWSLambda"]
        CMD ["dev.derive.infra.local.testfunction.TestFunction::handleRequest"]
        """);
    Path template = dir.resolve("template.yaml");
    Files.writeString(
        template,
        """
        Transform: AWS::Serverless-2016-10-31
        Globals:
          Function:
            MemorySize: 256
            Timeout: 10
            Environment:
              Variables:
                GREETING: from the globals
        Resources:
          ImageQueue:
            Type: AWS::SQS::Queue
            Properties:
              VisibilityTimeout: 60
          ImageFunction:
            Type: AWS::Serverless::Function
            Properties:
              PackageType: Image
              ImageConfig:
                Command:
                  - dev.derive.infra.local.testfunction.TestFunction::handleRequest
              Events:
                Get:
                  Type: HttpApi
                  Properties:
                    Path: /image/{id}
                    Method: GET
                Work:
                  Type: SQS
                  Properties:
                    Queue: !GetAtt ImageQueue.Arn
                    BatchSize: 1
            Metadata:
              DockerContext: images/echo
              Dockerfile: Dockerfile
          ZipFunction:
            Type: AWS::Serverless::Function
            Properties:
              Runtime: java25
              Handler: dev.derive.infra.local.testfunction.TestFunction::handleRequest
              CodeUri: function.zip
              Events:
                Get:
                  Type: HttpApi
                  Properties:
                    Path: /zip/{id}
                    Method: GET
        """);
    endpoint = MotoServerEndpoint.start(Path.of("target/moto-container-image.log"));
    cloud =
        LocalCloud.start(
            LocalCloudOptions.builder(template)
                .stackName("image-test")
                .httpPort(0)
                .endpoint(endpoint)
                .pollWaitSeconds(1)
                .build());
  }

  @AfterAll
  static void stop() {
    if (cloud != null) {
      cloud.close();
    }
    if (endpoint != null) {
      endpoint.close();
    }
  }

  @Test
  void anImageFunctionAnswersOverHttpLikeAZipFunction() throws Exception {
    for (String path : List.of("/image/7", "/zip/7")) {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(cloud.apiUri().resolve(path)).GET().build(),
                  HttpResponse.BodyHandlers.ofString());
      JsonNode echo = JSON.readTree(response.body());

      assertThat(response.statusCode()).as(path).isEqualTo(201);
      assertThat(echo.path("rawPath").asText()).isEqualTo(path);
      assertThat(echo.path("greeting").asText()).isEqualTo("from the globals");
    }
    assertThat(cloud.functionLog("ImageFunction")).contains("echoing /image/7");
  }

  @Test
  void anImageFunctionConsumesItsQueue() throws Exception {
    try (SqsClient sqs = AwsClients.sqs(endpoint)) {
      sqs.sendMessage(b -> b.queueUrl(cloud.queueUrl("ImageQueue")).messageBody("image work"));
    }
    long deadline = System.currentTimeMillis() + 30_000;
    while (!cloud.functionLog("ImageFunction").contains("batch: image work")) {
      assertThat(System.currentTimeMillis())
          .as("the batch reached the function")
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }
}
