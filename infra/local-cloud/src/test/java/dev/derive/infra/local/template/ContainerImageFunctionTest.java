package dev.derive.infra.local.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.derive.infra.local.RepositoryTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A container-image function ({@code PackageType: Image}) is read as the Java package its
 * Dockerfile copies in, with the handler of {@code ImageConfig.Command} or the image's {@code CMD},
 * and refused with what SAM refuses on one.
 */
class ContainerImageFunctionTest {
  @TempDir Path dir;

  private static final String IMAGE_FUNCTION =
      """
      Resources:
        Fn:
          Type: AWS::Serverless::Function
          Properties:
            PackageType: Image
      %s    Metadata:
            DockerContext: images/fn
            Dockerfile: Dockerfile.lambda
      """;

  /** The image function of {@link #IMAGE_FUNCTION} with more {@code properties}, one a line. */
  private static String imageFunction(String... properties) {
    StringBuilder lines = new StringBuilder();
    for (String property : properties) {
      lines.append("      ").append(property).append('\n');
    }
    return IMAGE_FUNCTION.formatted(lines);
  }

  private List<FunctionDefinition> read(String template, String dockerfile) throws IOException {
    Path file = dir.resolve("t.yaml");
    Files.writeString(file, template);
    Files.createDirectories(dir.resolve("images/fn"));
    Files.writeString(dir.resolve("images/fn/Dockerfile.lambda"), dockerfile);
    Template read = TemplateReader.read(file);
    return FunctionDefinitions.read(
        read, new StackReferences(read, "s", "us-east-1", Map.of()), "s");
  }

  @Test
  void runsThePackageTheDockerfileCopiesWithTheHandlerOfImageConfig() throws IOException {
    FunctionDefinition function =
        read(
                imageFunction(
                    "ImageConfig:", "  Command: [\"a.Handler::handleRequest\"]", "MemorySize: 512"),
                """
                # a build stage copying from the context, then the runtime stage
                FROM eclipse-temurin:25-jdk AS unpack
                COPY \\
                    build/function.zip /tmp/function.zip
                RUN mkdir /task && cd /task && jar xf /tmp/function.zip
                FROM debian:bookworm-slim
                COPY --from=unpack /task/ /var/task/
                COPY --chown=1000 config.json /etc/fn/
                CMD ["b.Other::handleRequest"]
                """)
            .getFirst();

    assertThat(function.code()).isEqualTo(dir.resolve("images/fn/build/function.zip"));
    assertThat(function.handler()).isEqualTo("a.Handler::handleRequest");
    assertThat(function.runtime()).isEmpty();
    assertThat(function.layers()).isEmpty();
    assertThat(function.memorySizeMb()).isEqualTo(512);
  }

  @Test
  void withoutImageConfigTheHandlerIsTheImagesCmd() throws IOException {
    FunctionDefinition function =
        read(
                imageFunction("Timeout: 9"),
                """
                FROM debian:bookworm-slim
                ADD ["target/app.zip", "/var/task/"]
                CMD ["b.Other::handleRequest"]
                """)
            .getFirst();

    assertThat(function.code()).isEqualTo(dir.resolve("images/fn/target/app.zip"));
    assertThat(function.handler()).isEqualTo("b.Other::handleRequest");
  }

  @Test
  void aDockerfileCopyingNoZipOrSeveralIsRefusedNamingIt() {
    for (String copies : List.of("COPY app.jar /var/task/", "COPY a.zip b.zip /var/task/")) {
      assertThatThrownBy(
              () ->
                  read(
                      imageFunction("Timeout: 9"),
                      "FROM debian\n" + copies + "\nCMD [\"a.B::c\"]\n"))
          .isInstanceOf(TemplateException.class)
          .hasMessageContaining("Fn: the local cloud runs a container-image function from the one")
          .hasMessageContaining("Dockerfile.lambda copies");
    }
  }

  @Test
  void runtimeHandlerOrLayersOnAnImageAreRefusedAsSamDoesGlobalsIncluded() {
    String globals =
        """
        Globals:
          Function:
            Runtime: java25
            Handler: a.B::c
        """;

    assertThatThrownBy(
            () ->
                read(
                    globals + imageFunction("Timeout: 9"),
                    "FROM debian\nCOPY f.zip /x/\nCMD [\"a.B::c\"]\n"))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining(
            "Fn is a container image (PackageType Image) but has Handler, Runtime");
  }

  @Test
  void anImageWithoutMetadataOrHandlerIsRefused() {
    assertThatThrownBy(
            () ->
                read(
                    """
                    Resources:
                      Fn:
                        Type: AWS::Serverless::Function
                        Properties:
                          PackageType: Image
                    """,
                    ""))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("without Metadata.DockerContext");
    assertThatThrownBy(() -> read(imageFunction("Timeout: 9"), "FROM a\nCOPY f.zip /x/\n"))
        .isInstanceOf(TemplateException.class)
        .hasMessageContaining("has no ImageConfig.Command and")
        .hasMessageContaining("no CMD in exec form");
  }

  @Test
  void theRepositorysOfficeWorkerRunsTheFunctionZipItsImageIsBuiltFrom() {
    Template template = TemplateReader.read(RepositoryTemplate.path());
    FunctionDefinition office =
        FunctionDefinitions.read(template, FakeStack.references(template, Map.of()), "s").stream()
            .filter(f -> f.logicalId().equals("OfficeWorkerFunction"))
            .findFirst()
            .orElseThrow();

    assertThat(office.code())
        .isEqualTo(
            template.directory().resolve("worker-functions/office-worker/target/function.zip"));
    assertThat(office.handler())
        .isEqualTo("io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest");
    assertThat(office.runtime()).isEqualTo(Optional.empty());
    assertThat(office.sqsEvents())
        .singleElement()
        .extracting(e -> e.eventId())
        .isEqualTo("OfficeSteps");
    // the image's CMD and the template's ImageConfig name the same handler
    assertThat(
            ContainerImageCode.read(
                    template.directory(),
                    template.resource("OfficeWorkerFunction").metadata(),
                    "OfficeWorkerFunction")
                .command())
        .hasValue(office.handler());
  }
}
