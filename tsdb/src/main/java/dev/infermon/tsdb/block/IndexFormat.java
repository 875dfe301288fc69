package dev.infermon.tsdb.block;

/** Constants of the block index file ({@code docs/format/index.md}). */
final class IndexFormat {
  /** "INIX": infermon index. */
  static final int MAGIC = 0x494E4958;

  static final int VERSION = 1;
  static final int HEADER_SIZE = 8;

  /** Series entries start at multiples of it; a series' id is its offset divided by it. */
  static final int SERIES_ALIGNMENT = 16;

  /** Four 8-byte section offsets and a CRC32C. */
  static final int TOC_SIZE = 4 * 8 + 4;

  static final String FILE = "index";

  /** The postings list of every series is stored under this (empty) label pair. */
  static final String ALL_POSTINGS_KEY = "";

  private IndexFormat() {}
}
