package dev.derive.worker.video;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.derive.protocol.message.StepErrorTypes;
import dev.derive.worker.runtime.PermanentStepFailure;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FFmpeg opens the one input file and nothing else: playlists that name local files or addresses (a
 * known attack on thumbnailers: an HLS playlist pointing at {@code file:///etc/passwd} or a
 * metadata address) are refused as {@code unsupported-input}, and a loopback HTTP listener they
 * name never sees a connection.
 */
class VideoConfinementTest {
  @TempDir Path dir;

  private HttpServer listener;
  private final AtomicInteger requests = new AtomicInteger();
  private String base;

  @BeforeEach
  void listen() throws IOException {
    listener = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    listener.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          exchange.sendResponseHeaders(404, -1);
          exchange.close();
        });
    listener.start();
    base = "http://127.0.0.1:" + listener.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    listener.stop(0);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n",
        "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n{base}/segment.ts\n#EXT-X-ENDLIST\n",
        "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n{base}/variant.m3u8\n",
        "ffconcat version 1.0\nfile '/etc/passwd'\nfile '{base}/clip.mp4'\n",
        "<?xml version=\"1.0\"?><MPD xmlns=\"urn:mpeg:dash:schema:mpd:2011\" type=\"static\""
            + " mediaPresentationDuration=\"PT10S\"><Period><AdaptationSet mimeType=\"video/mp4\">"
            + "<Representation id=\"1\" bandwidth=\"1\"><BaseURL>{base}/video.mp4</BaseURL>"
            + "</Representation></AdaptationSet></Period></MPD>",
        "<?xml version=\"1.0\"?><smil><body><video src=\"{base}/clip.mp4\"/></body></smil>"
      })
  void playlistsNamingOtherFilesOrAddressesAreRefusedAndFollowedNowhere(String playlist)
      throws IOException {
    for (String name : new String[] {"clip.m3u8", "clip.mp4", "clip"}) {
      Path file = dir.resolve(name);
      Files.writeString(file, playlist.replace("{base}", base));
      for (String operation :
          new String[] {
            VideoTransformer.POSTER, VideoTransformer.STORYBOARD, VideoTransformer.INFO
          }) {
        assertThatThrownBy(
                () ->
                    new VideoTransformer(VideoLimits.DEFAULTS)
                        .transform(
                            VideoCorpusTest.step(operation, Map.of()), file, dir.resolve("out")))
            .isInstanceOfSatisfying(
                PermanentStepFailure.class,
                e -> {
                  assertThat(e.type())
                      .isIn(StepErrorTypes.UNSUPPORTED_INPUT, StepErrorTypes.CORRUPT_INPUT);
                  assertThat(e.detail()).doesNotContain("passwd", "127.0.0.1", "root:");
                });
      }
    }
    assertThat(requests.get()).as("requests the loopback listener saw").isZero();
    assertThat(Files.exists(dir.resolve("out")) ? Files.readString(dir.resolve("out")) : "")
        .doesNotContain("root:");
  }
}
