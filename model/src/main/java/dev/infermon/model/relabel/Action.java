package dev.infermon.model.relabel;

import dev.infermon.model.text.GoQuote;
import java.util.Locale;

/** What a relabeling step does, with Prometheus's names ({@code model/relabel/relabel.go}). */
public enum Action {
  /** Sets {@code target_label} to the expanded {@code replacement} when {@code regex} matches. */
  REPLACE("replace"),
  /** Drops the label set unless {@code regex} matches the joined source values. */
  KEEP("keep"),
  /** Drops the label set when {@code regex} matches the joined source values. */
  DROP("drop"),
  /** Drops the label set unless the joined source values equal the target label's value. */
  KEEP_EQUAL("keepequal"),
  /** Drops the label set when the joined source values equal the target label's value. */
  DROP_EQUAL("dropequal"),
  /** Sets {@code target_label} to the MD5 of the joined source values modulo {@code modulus}. */
  HASHMOD("hashmod"),
  /** Copies every label whose name matches {@code regex} to the expanded {@code replacement}. */
  LABELMAP("labelmap"),
  /** Removes every label whose name matches {@code regex}. */
  LABELDROP("labeldrop"),
  /** Removes every label whose name does not match {@code regex}. */
  LABELKEEP("labelkeep"),
  /** Sets {@code target_label} to the joined source values in lower case. */
  LOWERCASE("lowercase"),
  /** Sets {@code target_label} to the joined source values in upper case. */
  UPPERCASE("uppercase");

  private final String yamlName;

  Action(String yamlName) {
    this.yamlName = yamlName;
  }

  /** The name used in configuration files, for example {@code labelmap}. */
  public String yamlName() {
    return yamlName;
  }

  /**
   * The action with this name, ignoring case as Prometheus does.
   *
   * @throws IllegalArgumentException {@code unknown relabel action "x"} for any other name
   */
  public static Action fromYamlName(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (Action a : values()) {
      if (a.yamlName.equals(lower)) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown relabel action " + GoQuote.quote(name));
  }

  @Override
  public String toString() {
    return yamlName;
  }
}
