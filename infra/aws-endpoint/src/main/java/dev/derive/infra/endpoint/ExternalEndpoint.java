package dev.derive.infra.endpoint;

import java.net.URI;

/**
 * An endpoint someone else runs (e.g. a LocalStack container), named by {@code AWS_ENDPOINT_URL}.
 */
public final class ExternalEndpoint implements AwsEndpoint {
  private final URI uri;

  /** Wraps {@code uri}; nothing is started or stopped. */
  public ExternalEndpoint(URI uri) {
    this.uri = uri;
  }

  @Override
  public URI uri() {
    return uri;
  }

  @Override
  public String describe() {
    return "AWS endpoint at " + uri + " (from AWS_ENDPOINT_URL)";
  }

  @Override
  public void close() {}
}
