package dev.derive.coordinator.api;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The HTTP methods the API's resources offer on a path, read from their JAX-RS annotations, for the
 * {@code Allow} header of a 405 answer (RFC 9110 section 10.2.1).
 */
final class AllowedMethods {
  private static final List<Class<?>> RESOURCES =
      List.of(
          DerivativesResource.class,
          UploadsResource.class,
          CapabilitiesResource.class,
          PresetsResource.class,
          ImageUrlResource.class);

  private AllowedMethods() {}

  /** The methods offered on {@code path} (e.g. {@code /v1/derivatives}), sorted; maybe empty. */
  static Set<String> on(String path) {
    String wanted = trim(path);
    Set<String> methods = new TreeSet<>();
    for (Class<?> resource : RESOURCES) {
      String base = resource.getAnnotation(Path.class).value();
      for (Method method : resource.getDeclaredMethods()) {
        String httpMethod = httpMethod(method);
        if (httpMethod == null) {
          continue;
        }
        Path sub = method.getAnnotation(Path.class);
        String template = trim(base + (sub == null ? "" : "/" + sub.value()));
        if (wanted.matches(pattern(template))) {
          methods.add(httpMethod);
        }
      }
    }
    if (methods.contains("GET")) {
      methods.add("HEAD");
    }
    return methods;
  }

  /**
   * The regular expression of a JAX-RS path template: {@code {name}} is one segment, {@code {name:
   * regex}} its regex (the image URL route's {@code {path: .+}} spans segments).
   */
  private static String pattern(String template) {
    return template.replaceAll("\\{[^/:}]+:\\s*([^}]+)}", "$1").replaceAll("\\{[^/}]+}", "[^/]+");
  }

  private static String httpMethod(Method method) {
    for (Annotation annotation : method.getAnnotations()) {
      HttpMethod http = annotation.annotationType().getAnnotation(HttpMethod.class);
      if (http != null) {
        return http.value();
      }
    }
    return null;
  }

  private static String trim(String path) {
    String p = ("/" + path).replaceAll("/+", "/");
    return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
  }
}
