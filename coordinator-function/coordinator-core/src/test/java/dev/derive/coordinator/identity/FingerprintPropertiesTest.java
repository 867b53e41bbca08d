package dev.derive.coordinator.identity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.derive.coordinator.Declarations;
import dev.derive.coordinator.plan.Planner;
import dev.derive.coordinator.validate.RequestValidator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Property-based checks of the fingerprint (jqwik): requests that differ only in member order,
 * defaults spelled out or left out, and number spelling ({@code 256}, {@code 256.0}, {@code
 * 2.56e2}) get one fingerprint; a change to a parameter that changes the output, or to the source,
 * gives another.
 */
class FingerprintPropertiesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final SourceIdentity SOURCE =
      new SourceIdentity("src", "photos/cat.jpg", null, "\"etag-1\"", 1000, "image/jpeg");

  private final RequestValidator validator = new RequestValidator(Declarations.ALL);
  private final Planner planner = new Planner(Declarations.ALL, "derivatives-bucket");

  /** A thumbnail request: width, height and quality, each possibly absent (null). */
  record Thumb(String mediaType, Integer width, Integer height, Integer quality) {}

  @Provide
  Arbitrary<Thumb> thumbs() {
    Arbitrary<Integer> size = Arbitraries.integers().between(1, Declarations.limit("maxDimension"));
    return Combinators.combine(
            Arbitraries.of("image/jpeg", "image/png"),
            size.injectNull(0.2),
            size.injectNull(0.2),
            Arbitraries.integers().between(1, 100).injectNull(0.5))
        .as(Thumb::new);
  }

  private String fingerprint(SourceIdentity source, String targetJson) throws Exception {
    var request =
        validator.validate(
            JSON.readTree(
                "{\"source\":{\"key\":\"photos/cat.jpg\"},\"target\":" + targetJson + "}"));
    return planner.plan(source, request.target()).fingerprint();
  }

  private static String number(int value, int spelling) {
    return switch (spelling % 3) {
      case 0 -> Integer.toString(value);
      case 1 -> value + ".0";
      default -> new java.math.BigDecimal(value).movePointLeft(2).toPlainString() + "e2";
    };
  }

  /** The members of {@code t}, spelled as {@code seed} picks, defaults added or not, shuffled. */
  private static String spell(Thumb t, long seed, boolean spellDefaults) {
    Random random = new Random(seed);
    List<String> members = new ArrayList<>();
    members.add("\"mediaType\":\"" + t.mediaType() + "\"");
    if (t.width() != null) {
      members.add("\"width\":" + number(t.width(), random.nextInt(3)));
    }
    if (t.height() != null) {
      members.add("\"height\":" + number(t.height(), random.nextInt(3)));
    }
    if (t.quality() != null) {
      members.add("\"quality\":" + number(t.quality(), random.nextInt(3)));
    } else if (spellDefaults) {
      members.add("\"quality\":85");
    }
    if (spellDefaults) {
      members.add("\"fit\":\"inside\"");
      members.add("\"withoutEnlargement\":true");
    }
    Collections.shuffle(members, random);
    return "{" + String.join(",", members) + "}";
  }

  @Property(tries = 300)
  void orderDefaultsAndNumberSpellingDoNotChangeTheFingerprint(
      @ForAll("thumbs") Thumb thumb, @ForAll long seed, @ForAll boolean spellDefaults)
      throws Exception {
    assertThat(fingerprint(SOURCE, spell(thumb, seed, spellDefaults)))
        .isEqualTo(fingerprint(SOURCE, spell(thumb, 0, false)));
  }

  @Property(tries = 200)
  void anotherWidthGivesAnotherFingerprint(
      @ForAll("thumbs") Thumb thumb, @ForAll @IntRange(min = 1, max = 500) int delta)
      throws Exception {
    int width = thumb.width() == null ? 256 : thumb.width();
    int other = width + delta <= Declarations.limit("maxDimension") ? width + delta : width - delta;
    Thumb a = new Thumb(thumb.mediaType(), width, thumb.height(), thumb.quality());
    Thumb b = new Thumb(thumb.mediaType(), other, thumb.height(), thumb.quality());

    assertThat(fingerprint(SOURCE, spell(a, 1, false)))
        .isNotEqualTo(fingerprint(SOURCE, spell(b, 1, false)));
  }

  @Property(tries = 200)
  void anotherQualityGivesAnotherFingerprint(
      @ForAll("thumbs") Thumb thumb,
      @ForAll @IntRange(min = 1, max = 100) int q1,
      @ForAll @IntRange(min = 1, max = 100) int q2)
      throws Exception {
    net.jqwik.api.Assume.that(q1 != q2);
    Thumb a = new Thumb(thumb.mediaType(), thumb.width(), thumb.height(), q1);
    Thumb b = new Thumb(thumb.mediaType(), thumb.width(), thumb.height(), q2);

    assertThat(fingerprint(SOURCE, spell(a, 2, false)))
        .isNotEqualTo(fingerprint(SOURCE, spell(b, 2, false)));
  }

  @Property(tries = 100)
  void anotherSourceVersionOrEtagGivesAnotherFingerprint(
      @ForAll("thumbs") Thumb thumb, @ForAll("etags") String etag) throws Exception {
    net.jqwik.api.Assume.that(!etag.equals(SOURCE.etag()));
    SourceIdentity edited =
        new SourceIdentity(
            SOURCE.bucket(), SOURCE.key(), null, etag, SOURCE.sizeBytes(), SOURCE.mediaType());
    SourceIdentity versioned =
        new SourceIdentity(
            SOURCE.bucket(), SOURCE.key(), "v-" + etag, SOURCE.etag(), 1, SOURCE.mediaType());
    String target = spell(thumb, 3, false);

    assertThat(fingerprint(edited, target)).isNotEqualTo(fingerprint(SOURCE, target));
    assertThat(fingerprint(versioned, target)).isNotEqualTo(fingerprint(SOURCE, target));
  }

  @Provide
  Arbitrary<String> etags() {
    return Arbitraries.strings()
        .withCharRange('a', 'f')
        .numeric()
        .ofLength(32)
        .map(s -> '"' + s + '"');
  }
}
