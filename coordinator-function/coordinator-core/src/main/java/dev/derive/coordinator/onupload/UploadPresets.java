package dev.derive.coordinator.onupload;

import dev.derive.coordinator.preset.Presets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which presets are made as soon as a source is uploaded, by key prefix: the {@code UPLOAD_PRESETS}
 * setting ({@code UploadPresets} template parameter), entries separated by {@code ;}, each {@code
 * <key prefix>=<preset>[,<preset>…]}, e.g. {@code uploads/=thumb,preview;scans/=page-1,text}. A key
 * under several prefixes gets the presets of all of them, each once, in the order given. Whether a
 * named preset exists is checked when an upload is handled (the presets document may change without
 * a deployment), not here.
 */
public final class UploadPresets {
  private final List<Entry> entries;

  /** One prefix and the presets made for the keys under it. */
  public record Entry(String prefix, List<String> presets) {
    public Entry {
      presets = List.copyOf(presets);
    }
  }

  private UploadPresets(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /**
   * Parses the setting; blank means no presets on upload.
   *
   * @throws IllegalArgumentException naming the entry, if an entry has no {@code =}, an empty
   *     prefix, no preset, or a preset name that does not match {@link Presets#NAME_PATTERN}
   */
  public static UploadPresets parse(String setting) {
    List<Entry> entries = new ArrayList<>();
    if (setting == null || setting.isBlank()) {
      return new UploadPresets(entries);
    }
    for (String raw : setting.split(";")) {
      String entry = raw.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int equals = entry.indexOf('=');
      if (equals <= 0) {
        throw new IllegalArgumentException(
            "UPLOAD_PRESETS entry '"
                + entry
                + "' must be <key prefix>=<preset>[,<preset>...], e.g. uploads/=thumb,preview");
      }
      String prefix = entry.substring(0, equals).trim();
      List<String> presets = new ArrayList<>();
      for (String name : entry.substring(equals + 1).split(",")) {
        String preset = name.trim();
        if (!preset.matches(Presets.NAME_PATTERN)) {
          throw new IllegalArgumentException(
              "UPLOAD_PRESETS entry '"
                  + entry
                  + "': '"
                  + preset
                  + "' is no preset name (it must match "
                  + Presets.NAME_PATTERN
                  + ")");
        }
        presets.add(preset);
      }
      entries.add(new Entry(prefix, presets));
    }
    return new UploadPresets(entries);
  }

  /** The entries, in the order given. */
  public List<Entry> entries() {
    return entries;
  }

  /** The presets made for an upload at {@code key}: empty when it is under no configured prefix. */
  public List<String> presetsFor(String key) {
    Set<String> presets = new LinkedHashSet<>();
    for (Entry entry : entries) {
      if (key.startsWith(entry.prefix())) {
        presets.addAll(entry.presets());
      }
    }
    return List.copyOf(presets);
  }
}
