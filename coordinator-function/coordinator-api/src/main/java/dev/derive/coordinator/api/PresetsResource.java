package dev.derive.coordinator.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.derive.coordinator.preset.Preset;
import dev.derive.coordinator.preset.PresetCatalogue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code GET /v1/presets}: the presets in force, each with the {@code target} or {@code steps} it
 * stands for, so a client can see exactly which JSON request {@code "preset": NAME} (or an image
 * URL's {@code pr:NAME}) makes.
 */
@Path("/v1/presets")
@Produces(MediaType.APPLICATION_JSON)
public class PresetsResource {
  private final PresetCatalogue catalogue;

  PresetsResource(PresetCatalogue catalogue) {
    this.catalogue = catalogue;
  }

  /**
   * One preset as listed.
   *
   * @param name what {@code "preset"} and {@code pr:} take
   * @param description what it is for
   * @param digest the version of its definition, which an image URL names beside the name ({@code
   *     pr:<name>:<digest>}, docs/image-urls.md)
   * @param target the target it stands for, or {@code null}
   * @param steps the steps it stands for, or {@code null}
   */
  @com.fasterxml.jackson.annotation.JsonInclude(
      com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
  public record PresetView(
      String name, String description, String digest, JsonNode target, JsonNode steps) {
    static PresetView of(Preset preset) {
      return new PresetView(
          preset.name(), preset.description(), preset.digest(), preset.target(), preset.steps());
    }
  }

  /**
   * The body of the response.
   *
   * @param presets every preset, in the order of its document
   */
  public record PresetsResponse(List<PresetView> presets) {}

  /** Lists the presets in force. */
  @GET
  @Operation(summary = "The presets: named targets or steps a request may use by name")
  @APIResponse(responseCode = "200", description = "The presets")
  public PresetsResponse list() {
    return new PresetsResponse(catalogue.current().all().stream().map(PresetView::of).toList());
  }
}
