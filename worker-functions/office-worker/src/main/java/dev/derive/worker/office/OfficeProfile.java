package dev.derive.worker.office;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The LibreOffice user profile every office process of the worker starts from (JODConverter copies
 * it for each process it starts): a {@code user/registrymodifications.xcu} that makes a document
 * unable to run code or reach anything outside itself. Load properties ({@link OfficeProcess}) say
 * the same for each document; either layer alone stops the macro and link fixtures of the tests.
 *
 * <ul>
 *   <li>Macros: security level "very high" (3: only signed macros from trusted locations, and none
 *       are trusted) and macro execution disabled altogether.
 *   <li>Remote and local resources: links to resources outside a document from an untrusted
 *       document are blocked ({@code BlockUntrustedRefererLinks}): linked pictures ({@code
 *       TargetMode="External"}, {@code xlink:href}), {@code INCLUDEPICTURE} fields, linked sections
 *       and {@code file:} links are neither fetched nor read. Without it LibreOffice 7.4 fetched a
 *       linked picture over HTTP and drew a {@code file:///} one into the PDF.
 *   <li>Links of Writer and Calc (DDE, OLE, external data) are never updated, and Calc never
 *       recalculates on load (a {@code WEBSERVICE} formula would fetch).
 *   <li>{@code DisableActiveContent} (LibreOffice 24.2 and later: macros, DDE, OLE links and
 *       external data in one switch); older versions ignore the unknown item.
 * </ul>
 */
final class OfficeProfile {
  /** One configuration value: the node's path, the property and its value. */
  private record Item(String path, String property, String value) {}

  private static final List<Item> ITEMS =
      List.of(
          scripting("MacroSecurityLevel", "3"),
          scripting("DisableMacrosExecution", "true"),
          scripting("BlockUntrustedRefererLinks", "true"),
          scripting("DisableActiveContent", "true"),
          // sw's link update mode: 0 never, 1 on request (the default), 2 always
          new Item("/org.openoffice.Office.Writer/Content/Update", "Link", "0"),
          // sc's ScLkUpdMode: 0 always, 1 never, 2 on request (the default)
          new Item("/org.openoffice.Office.Calc/Content/Update", "Link", "1"),
          // 0 always, 1 never (the default), 2 ask
          new Item("/org.openoffice.Office.Calc/Formula/Load", "OOXMLRecalcMode", "1"),
          new Item("/org.openoffice.Office.Calc/Formula/Load", "ODFRecalcMode", "1"),
          // no OpenCL device probing at start (a Lambda has no GPU)
          new Item("/org.openoffice.Office.Common/Misc", "UseOpenCL", "false"));

  private OfficeProfile() {}

  /**
   * Writes the profile into {@code directory} (created if needed), replacing an earlier one.
   *
   * @return {@code directory}, to give JODConverter as its template profile
   */
  static Path write(Path directory) throws IOException {
    Path user = Files.createDirectories(directory.resolve("user"));
    StringBuilder xcu =
        new StringBuilder(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<oor:items xmlns:oor=\"http://openoffice.org/2001/registry\""
                + " xmlns:xs=\"http://www.w3.org/2001/XMLSchema\""
                + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n");
    for (Item item : ITEMS) {
      xcu.append("<item oor:path=\"")
          .append(item.path())
          .append("\"><prop oor:name=\"")
          .append(item.property())
          .append("\" oor:op=\"fuse\"><value>")
          .append(item.value())
          .append("</value></prop></item>\n");
    }
    xcu.append("</oor:items>\n");
    Files.writeString(
        user.resolve("registrymodifications.xcu"), xcu.toString(), StandardCharsets.UTF_8);
    return directory;
  }

  private static Item scripting(String property, String value) {
    return new Item("/org.openoffice.Office.Common/Security/Scripting", property, value);
  }
}
