package dev.derive.infra.local.template;

import java.nio.file.Path;

/**
 * An {@code AWS::Serverless::LayerVersion} of the template that a function's {@code Layers} names.
 *
 * @param logicalId the resource's logical id
 * @param content the {@code ContentUri}: a zip file or a folder, absolute; what Lambda extracts to
 *     {@code /opt}
 */
public record LayerDefinition(String logicalId, Path content) {}
