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
    assertThat(template.parameters().get("JobLeaseSeconds").defaultValue()).isEqualTo("2220");
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
    assertThat(worker.functionName()).isEqualTo("derive-local-image-worker");
    assertThat(worker.timeoutSeconds()).isEqualTo(120);
    assertThat(worker.environment())
        .containsEntry("JOBS_TABLE", "ref:JobsTable")
        .containsEntry("IMAGE_QUEUE_URL", "ref:ImageQueue")
        .containsEntry("MAX_IMAGE_PIXELS", "100000000")
        .hasEntrySatisfying(
            "JAVA_TOOL_OPTIONS",
            options ->
                assertThat(options)
                    .as("the worker's own value wins over the Globals'")
                    .contains("--enable-native-access=ALL-UNNAMED"));
    assertThat(api.environment())
        .containsEntry("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1");
    assertThat(worker.code())
        .isEqualTo(
            template.directory().resolve("worker-functions/image-worker/target/function.zip"));
    assertThat(worker.sqsEvents())
        .containsExactly(
            new FunctionDefinition.SqsEvent(
                "ImageSteps", "arn:ImageQueue", 5, 0, true, java.util.OptionalInt.of(10), true));
    assertThat(api.environment()).containsEntry("JOB_LEASE_SECONDS", "60");
  }

  @Test
  void anApiGatewayRouteReachesTheFunctionItsIntegrationInvokesThroughItsAlias() {
    List<FunctionDefinition> functions =
        FunctionDefinitions.read(template, referencesWithFakeResources(Map.of()), "derive-local");

    FunctionDefinition api =
        functions.stream()
            .filter(f -> f.logicalId().equals("CoordinatorApiFunction"))
            .findFirst()
            .orElseThrow();
    assertThat(api.httpApiEvents())
        .containsExactly(
            new FunctionDefinition.HttpApiEvent("CoordinatorApiRoute", null, null),
            new FunctionDefinition.HttpApiEvent("ImageUrlRoute", "GET", "/v1/{signature}/{proxy+}"),
            new FunctionDefinition.HttpApiEvent(
                "DerivativesRoute", "ANY", "/v1/derivatives/{proxy+}"));
    assertThat(functions)
        .filteredOn(f -> !f.logicalId().equals("CoordinatorApiFunction"))
        .allSatisfy(f -> assertThat(f.httpApiEvents()).isEmpty());
  }

  @Test
  void conditionsFollowTheParameterValues() {
    StackReferences iam = new StackReferences(template, "s", "us-east-1", Map.of());
    StackReferences jwt =
        new StackReferences(template, "s", "us-east-1", Map.of("ApiAuthMode", "JWT"));

    assertThat(iam.condition("UseJwtAuth")).isFalse();
    assertThat(jwt.condition("UseJwtAuth")).isTrue();
    assertThat(template.resource("HttpApiJwtAuthorizer").isActive(iam)).isFalse();
    assertThat(template.resource("HttpApiJwtAuthorizer").isActive(jwt)).isTrue();
  }

  @Test
  void ifWithNoValueRemovesTheProperty() {
    StackReferences iam = new StackReferences(template, "s", "us-east-1", Map.of());
    StackReferences jwt =
        new StackReferences(template, "s", "us-east-1", Map.of("ApiAuthMode", "JWT"));
    jwt.register("HttpApiJwtAuthorizer", "authorizer-1", Map.of());
    Map<String, Object> route = template.resource("CoordinatorApiRoute").properties();
    Map<String, Object> auth =
        Map.of(
            "AuthorizationType", route.get("AuthorizationType"),
            "AuthorizerId", route.get("AuthorizerId"));

    assertThat(IntrinsicResolver.resolveMap(auth, iam))
        .containsExactly(Map.entry("AuthorizationType", "AWS_IAM"));
    assertThat(IntrinsicResolver.resolveMap(auth, jwt))
        .containsEntry("AuthorizationType", "JWT")
        .containsEntry("AuthorizerId", "authorizer-1");
  }

  @Test
  void readsAndEvaluatesConditionFunctionsJoinSelectAndSplit(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Parameters:
          Mode:
            Type: String
            Default: a
          Names:
            Type: String
            Default: x,y,z
        Conditions:
          IsA: !Equals [!Ref Mode, a]
          IsB: {"Fn::Equals": [{Ref: Mode}, b]}
          AOrB: !Or [!Condition IsA, !Condition IsB]
          Neither: !Not [!Condition AOrB]
          Both: {"Fn::And": [{Condition: IsA}, {Condition: IsB}]}
        Resources:
          Queue:
            Type: AWS::SQS::Queue
            Properties:
              Joined: !Join ["-", [!Ref Mode, !Select [1, !Split [",", !Ref Names]]]]
              Listed: [one, !If [IsB, two, !Ref AWS::NoValue], three]
              Picked: !If [Neither, never, {"Fn::If": [AOrB, either, never]}]
          Other:
            Type: AWS::SQS::Queue
            Condition: Both
        """);
    Template read = TemplateReader.read(file);
    StackReferences references = new StackReferences(read, "s", "us-east-1", Map.of());

    Map<String, Object> queue =
        IntrinsicResolver.resolveMap(read.resource("Queue").properties(), references);

    assertThat(queue)
        .containsEntry("Joined", "a-y")
        .containsEntry("Listed", List.of("one", "three"))
        .containsEntry("Picked", "either");
    assertThat(references.condition("AOrB")).isTrue();
    assertThat(references.condition("Neither")).isFalse();
    assertThat(read.resource("Other").condition()).isEqualTo("Both");
    assertThat(read.resource("Other").isActive(references)).isFalse();
  }

  @Test
  void failsNamingAnUndefinedCondition(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Resources:
          Queue:
            Type: AWS::SQS::Queue
            Condition: Missing
        """);
    Template read = TemplateReader.read(file);
    StackReferences references = new StackReferences(read, "s", "us-east-1", Map.of());

    assertThatThrownBy(() -> read.resource("Queue").isActive(references))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("condition Missing is not defined");
  }

  @Test
  void theImageWorkerGetsTheLayersOfTheStacksArchitecture() {
    for (String architecture : List.of("x86_64", "arm64")) {
      FunctionDefinition worker =
          FunctionDefinitions.read(
                  template,
                  referencesWithFakeResources(Map.of("Architecture", architecture)),
                  "derive-local")
              .stream()
              .filter(f -> f.logicalId().equals("ImageWorkerFunction"))
              .findFirst()
              .orElseThrow();
      String platform = architecture.equals("arm64") ? "linux-arm64" : "linux-x64";

      assertThat(worker.architecture()).isEqualTo(architecture);
      // libvips, FFmpeg for HEIC, and the fonts for SVG text (one folder, whatever the
      // architecture)
      assertThat(worker.layers())
          .extracting(layer -> layer.content())
          .containsExactlyInAnyOrder(
              template
                  .directory()
                  .resolve("worker-functions/libvips/target/layer/" + platform + ".zip")
                  .normalize(),
              template
                  .directory()
                  .resolve("worker-functions/ffmpeg/target/layer/" + platform + ".zip")
                  .normalize(),
              template
                  .directory()
                  .resolve("worker-functions/image-worker/target/fonts-layer")
                  .normalize());
      assertThat(worker.environment())
          .containsEntry("DERIVE_LIBVIPS_PATH", "/opt/lib")
          .containsEntry("FONTCONFIG_FILE", "/opt/fonts/fonts.conf");
    }
  }

  @Test
  void aLayerGivenByALiteralArnIsRefusedForItsContentIsNotHere(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(
        file,
        """
        Resources:
          Fn:
            Type: AWS::Serverless::Function
            Properties:
              CodeUri: f.zip
              Handler: a.B::c
              Runtime: java25
              Layers:
                - arn:aws:lambda:us-east-1:017000801446:layer:AWSLambdaPowertoolsJava:1
        """);
    Template read = TemplateReader.read(file);

    assertThatThrownBy(
            () ->
                FunctionDefinitions.read(
                    read, new StackReferences(read, "s", "us-east-1", Map.of()), "s"))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("Fn.Layers names arn:aws:lambda:us-east-1:017000801446:layer")
        .hasMessageContaining("not a layer of the template");
  }

  @Test
  void everyResourceOfTheRepositoryTemplateIsRunOrAcknowledgedLocally() {
    List<String> run =
        List.of(
            "AWS::S3::Bucket",
            "AWS::SQS::Queue",
            "AWS::DynamoDB::Table",
            "AWS::Events::EventBus",
            "AWS::Events::Rule",
            FunctionDefinitions.TYPE,
            LayerDefinitions.TYPE);

    assertThat(template.resources().values())
        .allSatisfy(
            r ->
                assertThat(run.contains(r.type()) || LocalMeaning.isSkipped(r.type()))
                    .as(r.logicalId() + " of type " + r.type())
                    .isTrue());
  }

  @Test
  void resourcesWithoutLocalMeaningAreAcknowledgedWithAReason() {
    StackReferences references = new StackReferences(template, "s", "us-east-1", Map.of());

    assertThat(LocalMeaning.skipped(template.resource("CoordinatorApiRoute"), references))
        .hasValueSatisfying(
            line ->
                assertThat(line)
                    .contains("$default")
                    .contains("AWS_IAM")
                    .contains("auth is not enforced locally"));
    assertThat(LocalMeaning.skipped(template.resource("ImageDeadLetterQueueAlarm"), references))
        .hasValueSatisfying(line -> assertThat(line).contains("AWS::CloudWatch::Alarm"));
    assertThat(LocalMeaning.skipped(template.resource("ImageQueue"), references)).isEmpty();
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
              BucketName: !FindInMap [Names, Bucket, Name]
        """);

    assertThatThrownBy(() -> TemplateReader.read(file))
        .isInstanceOf(UnsupportedIntrinsicException.class)
        .hasMessageContaining("Fn::FindInMap");
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
                Fn::ImportValue: shared-bucket
        """);

    assertThatThrownBy(() -> TemplateReader.read(file))
        .isInstanceOf(UnsupportedIntrinsicException.class)
        .hasMessageContaining("Fn::ImportValue")
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
    return FakeStack.references(template, overrides);
  }
}
