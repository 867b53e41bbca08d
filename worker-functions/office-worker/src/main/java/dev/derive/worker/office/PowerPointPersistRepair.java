package dev.derive.worker.office;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import org.apache.poi.hslf.record.PersistPtrHolder;
import org.apache.poi.hslf.record.Record;
import org.apache.poi.hslf.record.UserEditAtom;
import org.apache.poi.hslf.usermodel.HSLFSlideShow;
import org.apache.poi.hslf.usermodel.HSLFSlideShowImpl;
import org.apache.poi.poifs.filesystem.DirectoryNode;
import org.apache.poi.poifs.filesystem.FileMagic;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;

/**
 * Repairs the one defect of a binary PowerPoint file (PowerPoint 97–2003) that makes LibreOffice
 * refuse an otherwise readable presentation: a last {@code UserEditAtom} whose persist identifier
 * seed ({@code maxPersistWritten}) is below the highest persist identifier of the persist
 * directory. [MS-PPT] 2.3.3 requires the seed to be at least every identifier in the file;
 * LibreOffice sizes its persist table from it and gives up on the document when the directory has
 * more entries ({@code SdrPowerPointImport}: "Not all entries of Persist-Directory read"), while
 * PowerPoint and Apache POI read the file. Old POI versions wrote such files (the corpus's {@code
 * office/pictures.ppt}).
 *
 * <p>Apache POI (HSLF) reads the records; the repaired copy differs from the original only in that
 * atom, written back by POI with the seed set to the highest identifier. Anything else (not a
 * PowerPoint file, encrypted, unreadable, another defect) is left to LibreOffice's own answer.
 */
final class PowerPointPersistRepair {
  /** A record header: version, instance, type and length ([MS-PPT] 2.3.1). */
  private static final int HEADER_BYTES = 8;

  private PowerPointPersistRepair() {}

  /**
   * Writes a repaired copy of {@code input} to {@code repaired} if {@code input} is a PowerPoint
   * file with this defect.
   *
   * @return whether it was (and {@code repaired} was written)
   * @throws IOException if {@code input} cannot be read or {@code repaired} written
   */
  static boolean repair(Path input, Path repaired) throws IOException {
    try (InputStream in = new BufferedInputStream(Files.newInputStream(input))) {
      if (FileMagic.valueOf(in) != FileMagic.OLE2) {
        return false;
      }
    }
    byte[] stream;
    byte[] atom;
    int atomOffset;
    try (POIFSFileSystem file = new POIFSFileSystem(input.toFile(), true)) {
      DirectoryNode root = file.getRoot();
      if (!root.hasEntryCaseInsensitive(HSLFSlideShow.POWERPOINT_DOCUMENT)) {
        return false;
      }
      HSLFSlideShowImpl show = new HSLFSlideShowImpl(root);
      atomOffset = (int) show.getCurrentUserAtom().getCurrentEditOffset();
      UserEditAtom last = null;
      int highestPersistId = 0;
      for (Record record : show.getRecords()) {
        if (record instanceof PersistPtrHolder directory) {
          for (int id : directory.getKnownSlideIDs()) {
            highestPersistId = Math.max(highestPersistId, id);
          }
        } else if (record instanceof UserEditAtom edit
            && edit.getLastOnDiskOffset() == atomOffset) {
          last = edit;
        }
      }
      if (last == null || last.getMaxPersistWritten() >= highestPersistId) {
        return false;
      }
      last.setMaxPersistWritten(highestPersistId);
      ByteArrayOutputStream written = new ByteArrayOutputStream();
      last.writeOut(written);
      atom = written.toByteArray();
      try (InputStream in = root.createDocumentInputStream(HSLFSlideShow.POWERPOINT_DOCUMENT)) {
        stream = in.readAllBytes();
      }
    } catch (IOException | RuntimeException e) {
      return false; // POI cannot read it either (encrypted, broken): LibreOffice's answer stands
    }
    if (atomOffset < 0
        || atomOffset + atom.length > stream.length
        || !Arrays.equals(stream, atomOffset, atomOffset + HEADER_BYTES, atom, 0, HEADER_BYTES)) {
      return false; // not the same record where the current user says it is
    }
    System.arraycopy(atom, 0, stream, atomOffset, atom.length);
    Files.copy(input, repaired, StandardCopyOption.REPLACE_EXISTING);
    try (POIFSFileSystem file = new POIFSFileSystem(repaired.toFile(), false)) {
      file.getRoot()
          .createOrUpdateDocument(
              HSLFSlideShow.POWERPOINT_DOCUMENT, new ByteArrayInputStream(stream));
      file.writeFilesystem();
    }
    return true;
  }
}
