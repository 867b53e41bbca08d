package dev.derive.worker.text;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.tika.metadata.Metadata;

/**
 * The {@code metadata} operation's JSON: {@code {"mediaType":"application/pdf","hasText":true,
 * "metadata":{"dc:title":"…","xmpTPg:NPages":"13",…}}}, keys as Tika names them (Dublin Core, XMP,
 * office properties), sorted; a key with several values maps to an array. {@code hasText} is false
 * when the document's body has nothing but white space (a scanned PDF without a text layer: the
 * text capability does no OCR), so its {@code text/plain} derivative is empty.
 */
public final class TextMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private TextMetadata() {}

  /** Writes {@code metadata} to {@code output} as UTF-8 JSON. */
  public static void write(Metadata metadata, boolean hasText, Path output) throws IOException {
    JSON.writeValue(output.toFile(), describe(metadata, hasText));
  }

  /** {@code metadata} as a JSON tree. */
  public static ObjectNode describe(Metadata metadata, boolean hasText) {
    ObjectNode root = JSON.createObjectNode();
    root.put("mediaType", metadata.get(Metadata.CONTENT_TYPE));
    root.put("hasText", hasText);
    ObjectNode entries = root.putObject("metadata");
    String[] names = metadata.names();
    Arrays.sort(names);
    for (String name : names) {
      String[] values = metadata.getValues(name);
      if (values.length == 1) {
        entries.put(name, values[0]);
      } else {
        ArrayNode array = entries.putArray(name);
        Arrays.stream(values).forEach(array::add);
      }
    }
    return root;
  }
}
