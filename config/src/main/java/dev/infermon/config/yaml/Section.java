package dev.infermon.config.yaml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys one YAML mapping may hold. The mapper may only read declared keys, every other key in
 * the file is reported as unknown, and the documentation test walks the same sections: the three
 * cannot drift apart. A section can include the keys of others (Prometheus inlines the HTTP client
 * settings into scrape, remote-write and discovery configs). Immutable.
 */
public final class Section {
  private final String name;
  private final List<String> ownKeys;
  private final List<Section> included;
  private final Set<String> allKeys;

  private Section(String name, List<String> ownKeys, List<Section> included) {
    this.name = name;
    this.ownKeys = List.copyOf(ownKeys);
    this.included = List.copyOf(included);
    Set<String> all = new LinkedHashSet<>(ownKeys);
    for (Section s : included) {
      for (String k : s.keys()) {
        if (!all.add(k)) {
          throw new IllegalArgumentException("key " + k + " declared twice in section " + name);
        }
      }
    }
    this.allKeys = Collections.unmodifiableSet(all);
  }

  /** A section with these keys and the keys of the included sections. */
  public static Section of(String name, List<String> keys, Section... included) {
    return new Section(name, keys, List.of(included));
  }

  /** The documentation anchor of the section, for example {@code scrape_config}. */
  public String name() {
    return name;
  }

  /** Keys declared by this section itself, in documentation order. */
  public List<String> ownKeys() {
    return ownKeys;
  }

  /** Sections whose keys this one inlines. */
  public List<Section> included() {
    return included;
  }

  /** Every key allowed here, own and included. */
  public Set<String> keys() {
    return allKeys;
  }

  /** Own keys followed by included ones. */
  public List<String> keyList() {
    return new ArrayList<>(allKeys);
  }

  @Override
  public String toString() {
    return name;
  }
}
