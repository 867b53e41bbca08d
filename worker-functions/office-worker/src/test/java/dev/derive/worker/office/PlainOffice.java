package dev.derive.worker.office;

import com.sun.star.beans.PropertyValue;
import com.sun.star.beans.XPropertySet;
import com.sun.star.container.XNameContainer;
import com.sun.star.document.MacroExecMode;
import com.sun.star.document.XEventsSupplier;
import com.sun.star.frame.XStorable;
import com.sun.star.lang.XComponent;
import com.sun.star.script.XLibraryContainer;
import com.sun.star.text.XTextDocument;
import com.sun.star.uno.UnoRuntime;
import com.sun.star.util.XCloseable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import org.jodconverter.core.document.DefaultDocumentFormatRegistry;
import org.jodconverter.core.office.OfficeException;
import org.jodconverter.local.LocalConverter;
import org.jodconverter.local.office.LocalOfficeContext;
import org.jodconverter.local.office.LocalOfficeManager;
import org.jodconverter.local.office.LocalOfficeUtils;
import org.jodconverter.local.office.utils.Props;

/**
 * LibreOffice as it comes, driven by JODConverter with its defaults: a fresh default profile, no
 * hardening. Tests use it only as a control, to show that a hostile fixture is live (its picture is
 * fetched, its macro runs) where the office worker's settings are absent, and to make
 * password-protected documents.
 */
final class PlainOffice implements AutoCloseable {
  private final LocalOfficeManager manager;

  PlainOffice(Path workingDirectory) throws IOException, OfficeException {
    java.nio.file.Files.createDirectories(workingDirectory);
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    manager =
        LocalOfficeManager.builder()
            .officeHome(TestOffice.SETTINGS.officeHome().toFile())
            .portNumbers(port)
            .workingDir(workingDirectory.toFile())
            .build();
    manager.start();
  }

  /** Converts {@code input} to PDF with JODConverter's default load properties. */
  void convert(Path input, Path output) throws OfficeException {
    LocalConverter.builder()
        .officeManager(manager)
        .build()
        .convert(input.toFile())
        .to(output.toFile())
        .as(DefaultDocumentFormatRegistry.PDF)
        .execute();
  }

  /** Converts {@code input} to PDF opened in a (headless) window with every macro allowed. */
  void convertRunningMacros(Path input, Path output) throws OfficeException {
    LocalConverter.builder()
        .officeManager(manager)
        .loadProperties(
            Map.of("Hidden", false, "MacroExecutionMode", MacroExecMode.ALWAYS_EXECUTE_NO_WARN))
        .build()
        .convert(input.toFile())
        .to(output.toFile())
        .as(DefaultDocumentFormatRegistry.PDF)
        .execute();
  }

  /** Saves {@code input} as {@code output} with the export filter {@code filter}, encrypted. */
  void saveWithPassword(Path input, Path output, String filter, String password)
      throws OfficeException {
    manager.execute(
        context -> {
          try {
            XComponent document =
                ((LocalOfficeContext) context)
                    .getComponentLoader()
                    .loadComponentFromURL(
                        LocalOfficeUtils.toUrl(input.toFile()),
                        "_blank",
                        0,
                        new PropertyValue[] {Props.makeProperty("Hidden", true)});
            try {
              UnoRuntime.queryInterface(XStorable.class, document)
                  .storeToURL(
                      LocalOfficeUtils.toUrl(output.toFile()),
                      new PropertyValue[] {
                        Props.makeProperty("FilterName", filter),
                        Props.makeProperty("Password", password)
                      });
            } finally {
              UnoRuntime.queryInterface(XCloseable.class, document).close(true);
            }
          } catch (com.sun.star.uno.Exception e) {
            throw new OfficeException("could not save " + input + " with a password", e);
          }
        });
  }

  /**
   * Saves a new text document as ODT to {@code output} whose Basic macro, bound to the document's
   * load event ({@code OnLoad}), writes "ran" to {@code marker}.
   */
  void saveWithMacroOnLoad(Path marker, Path output) throws OfficeException {
    manager.execute(
        context -> {
          try {
            XComponent document =
                ((LocalOfficeContext) context)
                    .getComponentLoader()
                    .loadComponentFromURL(
                        "private:factory/swriter",
                        "_blank",
                        0,
                        new PropertyValue[] {Props.makeProperty("Hidden", true)});
            try {
              UnoRuntime.queryInterface(XTextDocument.class, document)
                  .getText()
                  .setString("A document whose macro runs when it is opened.");
              XLibraryContainer libraries =
                  UnoRuntime.queryInterface(
                      XLibraryContainer.class,
                      UnoRuntime.queryInterface(XPropertySet.class, document)
                          .getPropertyValue("BasicLibraries"));
              if (!libraries.hasByName("Standard")) {
                libraries.createLibrary("Standard");
              }
              UnoRuntime.queryInterface(XNameContainer.class, libraries.getByName("Standard"))
                  .insertByName(
                      "Module1",
                      "Sub Main\n  Open \""
                          + marker
                          + "\" For Output As #1\n  Print #1, \"ran\"\n  Close #1\nEnd Sub\n");
              UnoRuntime.queryInterface(XEventsSupplier.class, document)
                  .getEvents()
                  .replaceByName(
                      "OnLoad",
                      new PropertyValue[] {
                        Props.makeProperty("EventType", "Script"),
                        Props.makeProperty(
                            "Script",
                            "vnd.sun.star.script:Standard.Module1.Main?language=Basic"
                                + "&location=document")
                      });
              UnoRuntime.queryInterface(XStorable.class, document)
                  .storeToURL(
                      LocalOfficeUtils.toUrl(output.toFile()),
                      new PropertyValue[] {Props.makeProperty("FilterName", "writer8")});
            } finally {
              UnoRuntime.queryInterface(XCloseable.class, document).close(true);
            }
          } catch (com.sun.star.uno.Exception e) {
            throw new OfficeException("could not save a document with a macro", e);
          }
        });
  }

  @Override
  public void close() throws OfficeException {
    manager.stop();
  }
}
