package dev.derive.e2e;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Injects the {@link SharedLocalCloud} into end-to-end tests
 * ({@code @ExtendWith(LocalCloudExtension.class)}, then a {@code SharedLocalCloud} parameter).
 */
final class LocalCloudExtension implements ParameterResolver {
  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == SharedLocalCloud.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return SharedLocalCloud.in(context);
  }
}
