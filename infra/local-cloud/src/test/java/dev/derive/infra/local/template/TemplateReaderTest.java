package dev.derive.infra.local.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.local.RepositoryTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TemplateReaderTest {
  private final Template template = TemplateReader.read(RepositoryTemplate.path());

  @Test
  void keepsShortFormIntrinsicsAsValues() {
    Map<String, Object> queue = template.resource("ImageQueue").properties();
    @SuppressWarnings("unchecked")
    Map<String, Object> redrive = (Map<String, Object>) queue.get("RedrivePolicy");

    assertThat(redrive.get("deadLetterTargetArn"))
        .isEqualTo(new Intrinsic.GetAtt("ImageDeadLetterQueue", "Arn"));
    assertThat(queue.get("QueueName")).isInstanceOf(Intrinsic.Sub.class);
    assertThat(template.parameters().get("JobLeaseSeconds").defaultValue()).isEqualTo("900");
  }

  @Test
  void resolvesSubWithPseudoParameters() {
    StackReferences references =
        new StackReferences(template, "derive-local", "us-east-1", Map.of());

    Map<String, Object> bucket =
        IntrinsicResolver.resolveMap(template.resource("SourceBucket").properties(), references);

    assertThat(bucket.get("BucketName")).isEqualTo("derive-local-source-123456789012");
  }

  @Test
  void mergesGlobalsIntoEachFunctionWithTheFunctionWinning() {
    StackReferences references = referencesWithFakeResources(Map.of("JobLeaseSeconds", "60"));

    List<FunctionDefinition> functions =
        FunctionDefinitions.read(template, references, "derive-local");
    FunctionDefinition worker =
        functions.stream()
            .filter(f -> f.logicalId().equals("ImageWorkerFunction"))
            .findFirst()
            .orElseThrow();
    FunctionDefinition api =
        functions.stream()
            .filter(f -> f.logicalId().equals("CoordinatorApiFunction"))
            .findFirst()
            .orElseThrow();

    assertThat(worker.handler())
        .isEqualTo("io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest");
    assertThat(worker.memorySizeMb()).isEqualTo(2048);
    assertThat(worker.timeoutSeconds()).isEqualTo(120);
    assertThat(worker.environment())
        .containsEntry("JOBS_TABLE", "ref:JobsTable")
        .containsEntry("IMAGE_QUEUE_URL", "ref:ImageQueue")
        .containsEntry("MAX_IMAGE_PIXELS", "100000000")
        .containsEntry("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1");
    assertThat(worker.code())
        .isEqualTo(
            template.directory().resolve("worker-functions/image-worker/target/function.zip"));
    assertThat(worker.sqsEvents())
        .containsExactly(
            new FunctionDefinition.SqsEvent(
                "ImageSteps", "arn:ImageQueue", 5, 0, true, java.util.OptionalInt.of(2), true));
    assertThat(api.environment()).containsEntry("JOB_LEASE_SECONDS", "60");
    assertThat(api.httpApiEvents())
        .containsExactly(new FunctionDefinition.HttpApiEvent("Api", "ANY", "/{proxy+}"));
  }

  @Test
  void subSupportsLiteralsAndLocalVariables() {
    StackReferences references = new StackReferences(template, "s", "eu-west-1", Map.of());
    Intrinsic.Sub sub =
        new Intrinsic.Sub("${!Literal}-${Local}-${AWS::Region}", Map.of("Local", "x"));

    assertThat(IntrinsicResolver.resolve(sub, references)).isEqualTo("${Literal}-x-eu-west-1");
  }

  @Test
  void failsNamingAnUnsupportedShortFormIntrinsic(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Resources:
          Bucket:
            Type: AWS::S3::Bucket
            Properties:
              BucketName: !Join ["-", [a, b]]
        """);

    assertThatThrownBy(() -> TemplateReader.read(file))
        .isInstanceOf(UnsupportedIntrinsicException.class)
        .hasMessageContaining("Fn::Join");
  }

  @Test
  void failsNamingAnUnsupportedLongFormIntrinsic(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Resources:
          Bucket:
            Type: AWS::S3::Bucket
            Properties:
              BucketName:
                Fn::Select: [0, [a, b]]
        """);

    assertThatThrownBy(() -> TemplateReader.read(file))
        .isInstanceOf(UnsupportedIntrinsicException.class)
        .hasMessageContaining("Fn::Select")
        .hasMessageContaining("Resources.Bucket.Properties.BucketName");
  }

  @Test
  void readsLongFormRefGetAttAndSub(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Resources:
          Queue:
            Type: AWS::SQS::Queue
            Properties:
              A: {Ref: Other}
              B: {"Fn::GetAtt": [Other, Arn]}
              C: {"Fn::Sub": "${AWS::StackName}-c"}
        """);

    Map<String, Object> properties = TemplateReader.read(file).resource("Queue").properties();

    assertThat(properties)
        .containsEntry("A", new Intrinsic.Ref("Other"))
        .containsEntry("B", new Intrinsic.GetAtt("Other", "Arn"))
        .containsEntry("C", new Intrinsic.Sub("${AWS::StackName}-c", Map.of()));
  }

  @Test
  void rejectsAnOverrideOfAnUnknownParameter() {
    assertThatThrownBy(
            () -> new StackReferences(template, "s", "us-east-1", Map.of("NoSuchParameter", "1")))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("NoSuchParameter");
  }

  private StackReferences referencesWithFakeResources(Map<String, String> overrides) {
    StackReferences references =
        new StackReferences(template, "derive-local", "us-east-1", overrides);
    for (Template.Resource resource : template.resources().values()) {
      String id = resource.logicalId();
      references.register(id, "ref:" + id, Map.of("Arn", "arn:" + id, "QueueName", "name:" + id));
    }
    return references;
  }
}
