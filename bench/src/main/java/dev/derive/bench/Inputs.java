package dev.derive.bench;

import dev.derive.protocol.MediaTypes;
import dev.derive.protocol.message.ObjectRef;
import dev.derive.protocol.message.Operation;
import dev.derive.protocol.message.StepMessage;
import dev.derive.worker.ffmpeg.TestPattern;
import dev.derive.worker.markup.MarkupTransformer;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageOutputStream;

/**
 * The bench's inputs, generated on each run (no sample file is committed): photo-like JPEGs (smooth
 * colour fields, soft shapes and sensor-like noise, so the encoder and decoder work as on a photo,
 * not on flat colour), a 1080p MP4, a Markdown document of several pages, and the PDF the markup
 * capability makes from it (real text and embedded fonts, as pdftotext and pdftoppm expect).
 * Seeded: every run gets the same bytes.
 */
// Over 300 lines because each input's generator is its own short method and all share one seed.
public final class Inputs {
  private static final String[] WORDS = {
    "derivative",
    "capability",
    "fingerprint",
    "lease",
    "queue",
    "thumbnail",
    "worker",
    "source",
    "coordinator",
    "preview",
    "render",
    "page",
    "pixel",
    "colour",
    "cache",
    "claim",
    "dispatch",
    "the",
    "of",
    "and",
    "a",
    "to",
    "in",
    "is",
    "it",
    "that",
    "for",
    "on",
    "with",
    "as",
    "at",
    "by"
  };

  private final Path folder;

  /** Generates into {@code folder} (created). */
  public Inputs(Path folder) throws IOException {
    this.folder = Files.createDirectories(folder);
  }

  /**
   * A 1080p H.264 MP4 at 30 frames a second, 6 Mbit/s, a keyframe every 2 s, of FFmpeg's {@code
   * testsrc2} pattern, {@code seconds} long, named {@code name}; made by the FFmpeg the video
   * worker runs.
   */
  public Path video(String name, int seconds) throws IOException {
    return TestPattern.write(
        folder.resolve(name),
        1920,
        1080,
        30,
        seconds,
        "mp4",
        List.of("-c:v", "libopenh264", "-b:v", "6M", "-g", "60"));
  }

  /**
   * {@code video} with a {@code free} box holding {@code mark} appended: the same movie to FFmpeg,
   * another source to Derive (its identity is the bytes' digest), so no derivative of it is cached.
   */
  public Path marked(Path video, String mark) throws IOException {
    byte[] payload = mark.getBytes(StandardCharsets.UTF_8);
    ByteBuffer box = ByteBuffer.allocate(8 + payload.length);
    box.putInt(8 + payload.length).put("free".getBytes(StandardCharsets.US_ASCII)).put(payload);
    Path copy = folder.resolve(mark + "-" + video.getFileName());
    Files.copy(video, copy, StandardCopyOption.REPLACE_EXISTING);
    Files.write(copy, box.array(), StandardOpenOption.APPEND);
    return copy;
  }

  /**
   * An animated GIF of {@code width} × {@code height} pixels, 10 frames a second for {@code
   * seconds}, of FFmpeg's {@code testsrc2} pattern with a palette made for it ({@code palettegen},
   * {@code paletteuse}, as a GIF is usually made from a clip), looping; named {@code name}.
   */
  public Path animatedGif(String name, int width, int height, int seconds) throws IOException {
    Path gif = folder.resolve(name);
    TestPattern.write(
        gif,
        width,
        height,
        10,
        seconds,
        "gif",
        List.of("-filter_complex", "split[a][b];[a]palettegen[p];[b][p]paletteuse", "-loop", "0"));
    return gif;
  }

  /**
   * A photo-like baseline JPEG of {@code width} × {@code height} pixels at quality 90, named {@code
   * name}.
   */
  public Path photo(String name, int width, int height, long seed) throws IOException {
    Path file = folder.resolve(name);
    BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    Random random = new Random(seed);
    double fx = 2 + random.nextDouble() * 3;
    double fy = 1 + random.nextDouble() * 3;
    int[] row = new int[width];
    int[][] blobs = new int[24][];
    for (int i = 0; i < blobs.length; i++) {
      blobs[i] =
          new int[] {
            random.nextInt(width),
            random.nextInt(height),
            width / 20 + random.nextInt(width / 6),
            random.nextInt(0xFFFFFF)
          };
    }
    for (int y = 0; y < height; y++) {
      double v = (double) y / height;
      for (int x = 0; x < width; x++) {
        double u = (double) x / width;
        double r = 128 + 90 * Math.sin(fx * u * Math.PI + v * 2);
        double g = 120 + 80 * Math.sin(fy * v * Math.PI + u * 3);
        double b = 110 + 70 * Math.cos((u + v) * 4);
        for (int[] blob : blobs) {
          double dx = x - blob[0];
          double dy = y - blob[1];
          double d2 = (dx * dx + dy * dy) / ((double) blob[2] * blob[2]);
          if (d2 < 1) {
            double w = (1 - d2) * 0.6;
            r += w * (((blob[3] >> 16) & 0xFF) - r);
            g += w * (((blob[3] >> 8) & 0xFF) - g);
            b += w * ((blob[3] & 0xFF) - b);
          }
        }
        int noise = random.nextInt(13) - 6;
        row[x] = (clamp(r + noise) << 16) | (clamp(g + noise) << 8) | clamp(b + noise);
      }
      image.setRGB(0, y, width, 1, row, 0, width);
    }
    writeJpeg(image, file, 0.9f);
    return file;
  }

  /** A Markdown document of about {@code pages} A4 pages: headings, paragraphs, a list, a table. */
  public Path markdown(String name, int pages, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder("# Derive bench document ").append(seed).append("\n\n");
    for (int section = 1; section <= pages * 2; section++) {
      text.append("## Section ").append(section).append("\n\n");
      for (int p = 0; p < 3; p++) {
        text.append(sentence(random, 60 + random.nextInt(40))).append("\n\n");
      }
      text.append("- ").append(sentence(random, 8)).append('\n');
      text.append("- ").append(sentence(random, 10)).append("\n\n");
      if (section % 2 == 0) {
        text.append("| step | capability | ms |\n|---|---|---|\n");
        for (int r = 0; r < 4; r++) {
          text.append("| ")
              .append(r + 1)
              .append(" | ")
              .append(WORDS[random.nextInt(WORDS.length)])
              .append(" | ")
              .append(random.nextInt(1000))
              .append(" |\n");
        }
        text.append('\n');
      }
    }
    Path file = folder.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  /** Pages of the office rows' DOCX: 20, or 2 in a smoke run. */
  public static int documentPages(Scale scale) {
    return scale.smoke() ? 2 : 20;
  }

  /**
   * A DOCX of {@code pages} pages of generated text, each second page with a photo-like JPEG of
   * 1200 × 800 pixels shown 6 × 4 inches (one picture file per four pages, as documents reuse a
   * logo or a chart), named {@code name}: the office rows' multi-page document with pictures.
   */
  public Path docx(String name, int pages, long seed) throws IOException {
    Random random = new Random(seed);
    int pictures = Math.max(1, pages / 4);
    StringBuilder body = new StringBuilder();
    StringBuilder relationships = new StringBuilder();
    for (int picture = 1; picture <= pictures; picture++) {
      relationships
          .append("<Relationship Id=\"rIdImg")
          .append(picture)
          .append(
              "\" Type=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships/image\"")
          .append(" Target=\"media/image")
          .append(picture)
          .append(".jpeg\"/>");
    }
    for (int page = 1; page <= pages; page++) {
      body.append("<w:p><w:pPr><w:pStyle w:val=\"Heading1\"/></w:pPr><w:r><w:t>Page ")
          .append(page)
          .append("</w:t></w:r></w:p>");
      for (int p = 0; p < 3; p++) {
        body.append("<w:p><w:r><w:t>").append(sentence(random, 50)).append("</w:t></w:r></w:p>");
      }
      if (page % 2 == 0) {
        int picture = 1 + (page / 2 - 1) % pictures;
        body.append(
                "<w:p><w:r><w:drawing><wp:inline><wp:extent cx=\"5486400\" cy=\"3657600\"/>"
                    + "<wp:docPr id=\"")
            .append(page)
            .append(
                "\" name=\"picture\"/><a:graphic><a:graphicData"
                    + " uri=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"><pic:pic>"
                    + "<pic:nvPicPr><pic:cNvPr id=\"0\" name=\"picture\"/><pic:cNvPicPr/>"
                    + "</pic:nvPicPr><pic:blipFill><a:blip r:embed=\"rIdImg")
            .append(picture)
            .append(
                "\"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill><pic:spPr><a:xfrm><a:off"
                    + " x=\"0\" y=\"0\"/><a:ext cx=\"5486400\" cy=\"3657600\"/></a:xfrm>"
                    + "<a:prstGeom prst=\"rect\"/></pic:spPr></pic:pic></a:graphicData>"
                    + "</a:graphic></wp:inline></w:drawing></w:r></w:p>");
      }
      if (page < pages) {
        body.append("<w:p><w:r><w:br w:type=\"page\"/></w:r></w:p>");
      }
    }
    Path file = folder.resolve(name);
    try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(file))) {
      part(
          zip,
          "[Content_Types].xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Types"
              + " xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\"><Default"
              + " Extension=\"rels\""
              + " ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
              + "<Default Extension=\"xml\" ContentType=\"application/xml\"/><Default"
              + " Extension=\"jpeg\" ContentType=\"image/jpeg\"/><Override"
              + " PartName=\"/word/document.xml\" ContentType=\"application/"
              + "vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml\"/></Types>");
      part(
          zip,
          "_rels/.rels",
          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships"
              + " xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
              + "<Relationship Id=\"rId1\" Type=\"http://schemas.openxmlformats.org/"
              + "officeDocument/2006/relationships/officeDocument\" Target=\"word/document.xml\"/>"
              + "</Relationships>");
      part(
          zip,
          "word/_rels/document.xml.rels",
          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><Relationships"
              + " xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
              + relationships
              + "</Relationships>");
      part(
          zip,
          "word/document.xml",
          "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?><w:document"
              + " xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\""
              + " xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\""
              + " xmlns:wp=\"http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing\""
              + " xmlns:a=\"http://schemas.openxmlformats.org/drawingml/2006/main\""
              + " xmlns:pic=\"http://schemas.openxmlformats.org/drawingml/2006/picture\"><w:body>"
              + body
              + "<w:sectPr/></w:body></w:document>");
      for (int picture = 1; picture <= pictures; picture++) {
        Path jpeg = photo("docx-picture-" + picture + ".jpg", 1200, 800, seed * 100 + picture);
        zip.putNextEntry(new ZipEntry("word/media/image" + picture + ".jpeg"));
        zip.write(Files.readAllBytes(jpeg));
        zip.closeEntry();
      }
    }
    return file;
  }

  private static void part(ZipOutputStream zip, String name, String content) throws IOException {
    zip.putNextEntry(new ZipEntry(name));
    zip.write(content.getBytes(StandardCharsets.UTF_8));
    zip.closeEntry();
  }

  /** The PDF the markup capability renders from {@code markdown}, named {@code name}. */
  public Path pdfFrom(Path markdown, String name) throws IOException {
    Path file = folder.resolve(name);
    Files.deleteIfExists(file);
    Files.createFile(file);
    StepMessage step =
        new StepMessage(
            "0".repeat(64),
            0,
            1,
            "markup",
            List.of(new Operation(MarkupTransformer.RENDER, Map.of())),
            new ObjectRef("bench", markdown.getFileName().toString(), null),
            MediaTypes.TEXT_MARKDOWN,
            new ObjectRef("bench", name, null),
            "application/pdf",
            "bench");
    new MarkupTransformer(MarkupTransformer.DEFAULT_MAX_OUTPUT_BYTES)
        .transform(step, markdown, file);
    return file;
  }

  private static String sentence(Random random, int words) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < words; i++) {
      String word = WORDS[random.nextInt(WORDS.length)];
      s.append(i == 0 ? Character.toUpperCase(word.charAt(0)) + word.substring(1) : word);
      s.append(i == words - 1 ? "." : random.nextInt(12) == 0 ? ", " : " ");
    }
    return s.toString();
  }

  private static int clamp(double value) {
    return (int) Math.max(0, Math.min(255, Math.round(value)));
  }

  private static void writeJpeg(BufferedImage image, Path file, float quality) throws IOException {
    Iterator<ImageWriter> writers = ImageIO.getImageWritersByFormatName("jpeg");
    ImageWriter writer = writers.next();
    ImageWriteParam param = writer.getDefaultWriteParam();
    param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
    param.setCompressionQuality(quality);
    Files.deleteIfExists(file);
    try (ImageOutputStream out = ImageIO.createImageOutputStream(file.toFile())) {
      writer.setOutput(out);
      writer.write(null, new IIOImage(image, null, null), param);
    } finally {
      writer.dispose();
    }
  }
}
