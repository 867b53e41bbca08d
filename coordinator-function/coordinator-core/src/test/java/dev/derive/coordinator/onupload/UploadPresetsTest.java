package dev.derive.coordinator.onupload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class UploadPresetsTest {

  @Test
  void aKeyUnderAPrefixGetsItsPresetsInOrder() {
    UploadPresets presets = UploadPresets.parse("uploads/=thumb,preview");

    assertThat(presets.presetsFor("uploads/u1/a.jpg")).containsExactly("thumb", "preview");
  }

  @Test
  void aKeyUnderNoPrefixGetsNone() {
    UploadPresets presets = UploadPresets.parse("uploads/=thumb");

    assertThat(presets.presetsFor("other/a.jpg")).isEmpty();
    assertThat(presets.presetsFor("Uploads/a.jpg"))
        .as("prefixes are case-sensitive, as S3 keys")
        .isEmpty();
  }

  @Test
  void aKeyUnderSeveralPrefixesGetsEachPresetOnce() {
    UploadPresets presets =
        UploadPresets.parse(" uploads/ = thumb , preview ; uploads/scans/=page-1,thumb;");

    assertThat(presets.presetsFor("uploads/scans/s.pdf"))
        .containsExactly("thumb", "preview", "page-1");
  }

  @Test
  void blankMeansNothingOnUpload() {
    assertThat(UploadPresets.parse("").entries()).isEmpty();
    assertThat(UploadPresets.parse(null).entries()).isEmpty();
  }

  @Test
  void anEntryWithoutAPrefixOrWithABadPresetNameIsRefusedNamingIt() {
    assertThatThrownBy(() -> UploadPresets.parse("thumb"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'thumb'")
        .hasMessageContaining("<key prefix>=<preset>");
    assertThatThrownBy(() -> UploadPresets.parse("=thumb"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> UploadPresets.parse("uploads/=Thumb Nail"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'Thumb Nail' is no preset name");
    assertThatThrownBy(() -> UploadPresets.parse("uploads/="))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
