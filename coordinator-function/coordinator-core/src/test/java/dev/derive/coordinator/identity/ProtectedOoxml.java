package dev.derive.coordinator.identity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.GeneralSecurityException;
import org.apache.poi.poifs.crypt.EncryptionInfo;
import org.apache.poi.poifs.crypt.EncryptionMode;
import org.apache.poi.poifs.crypt.Encryptor;
import org.apache.poi.poifs.filesystem.POIFSFileSystem;
import org.apache.poi.xssf.usermodel.XSSFSheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

/** Password-protected OOXML files made with Apache POI, as Office saves them (agile encryption). */
final class ProtectedOoxml {
  private ProtectedOoxml() {}

  /** An XLSX of {@code rows} rows encrypted with {@code password}: an OLE2 container. */
  static byte[] xlsx(String password, int rows) throws IOException, GeneralSecurityException {
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    try (XSSFWorkbook workbook = new XSSFWorkbook()) {
      XSSFSheet sheet = workbook.createSheet("budget");
      for (int i = 0; i < rows; i++) {
        sheet.createRow(i).createCell(0).setCellValue("line " + i + " of the confidential budget");
      }
      workbook.write(plain);
    }
    try (POIFSFileSystem container = new POIFSFileSystem()) {
      Encryptor encryptor = new EncryptionInfo(EncryptionMode.agile).getEncryptor();
      encryptor.confirmPassword(password);
      try (OutputStream out = encryptor.getDataStream(container)) {
        out.write(plain.toByteArray());
      }
      ByteArrayOutputStream encrypted = new ByteArrayOutputStream();
      container.writeFilesystem(encrypted);
      return encrypted.toByteArray();
    }
  }
}
