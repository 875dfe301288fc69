package dev.infermon.storage;

import dev.infermon.model.metadata.Metadata;
import java.util.List;
import java.util.Map;

/** Reads the metadata targets reported, per metric family name. Thread-safe. */
public interface MetadataReader {
  /**
   * Metadata per metric family; every distinct metadata seen for a family is listed once. With a
   * non-null {@code metric}, only that family.
   */
  Map<String, List<Metadata>> metadata(String metric);
}
