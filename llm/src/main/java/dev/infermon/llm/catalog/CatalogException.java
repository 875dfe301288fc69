package dev.infermon.llm.catalog;

/**
 * Catalog data that does not validate: names the file, the entry's path and what is wrong. The
 * built-in data is checked by the build, so at run time this means a custom catalog is bad.
 */
public final class CatalogException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public CatalogException(String message) {
    super(message);
  }

  public CatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
