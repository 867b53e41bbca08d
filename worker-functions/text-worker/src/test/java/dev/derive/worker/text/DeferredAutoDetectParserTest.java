package dev.derive.worker.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.tika.extractor.EmbeddedDocumentUtil;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.html.JSoupParser;
import org.apache.tika.sax.BodyContentHandler;
import org.junit.jupiter.api.Test;

class DeferredAutoDetectParserTest {
  private static final byte[] PAGE =
      "<html><body><p>déjà vu</p></body></html>".getBytes(StandardCharsets.UTF_8);

  @Test
  void nothingIsBuiltUntilADocumentIsParsedAndThenOnlyOnce() throws Exception {
    AtomicInteger setUps = new AtomicInteger();
    DeferredAutoDetectParser parser = new DeferredAutoDetectParser(setUps::incrementAndGet);
    assertThat(parser.isBuilt()).isFalse();
    assertThat(setUps).hasValue(0);

    for (int i = 0; i < 2; i++) {
      BodyContentHandler text = new BodyContentHandler();
      Metadata metadata = new Metadata();
      parser.parse(new ByteArrayInputStream(PAGE), text, metadata, new ParseContext());
      assertThat(text.toString()).contains("déjà vu");
      assertThat(metadata.get(Metadata.CONTENT_TYPE)).startsWith("text/html");
    }

    assertThat(parser.isBuilt()).isTrue();
    assertThat(setUps).hasValue(1);
  }

  /** Tika's parsers look for a sibling in the context's parser (an e-mail's HTML body, say). */
  @Test
  void tikasSearchForAParserInTheContextReachesTheOnesInside() {
    ParseContext context = new ParseContext();
    context.set(Parser.class, new DeferredAutoDetectParser(() -> {}));

    assertThat(EmbeddedDocumentUtil.tryToFindExistingLeafParser(JSoupParser.class, context))
        .isInstanceOf(JSoupParser.class);
  }
}
