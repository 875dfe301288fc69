package dev.infermon.model.relabel;

import dev.infermon.model.text.GoQuote;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One relabeling step ({@code relabel_configs}, {@code metric_relabel_configs}, {@code
 * write_relabel_configs}, {@code alert_relabel_configs}), validated as Prometheus validates it.
 *
 * <p>Immutable and thread-safe; build with {@link #builder()}. Defaults are Prometheus's: action
 * {@code replace}, separator {@code ;}, regex {@code (.*)}, replacement {@code $1}. Label names are
 * checked with the legacy rules ({@code [a-zA-Z_][a-zA-Z0-9_]*}), which is also what Prometheus 3
 * does under {@code metric_name_validation_scheme: legacy}.
 */
public final class RelabelConfig {
  /** Default separator between joined source label values. */
  public static final String DEFAULT_SEPARATOR = ";";

  /** Default replacement: the first capture group. */
  public static final String DEFAULT_REPLACEMENT = "$1";

  // relabelTargetLegacy in relabel.go: a label name in which ${n} / $n references may appear.
  private static final Pattern TARGET_WITH_REFERENCES =
      Pattern.compile("^(?:(?:[a-zA-Z_]|\\$(?:\\{\\w+\\}|\\w+))+\\w*)+$");
  private static final Set<Action> NEED_TARGET =
      EnumSet.of(
          Action.REPLACE,
          Action.HASHMOD,
          Action.LOWERCASE,
          Action.UPPERCASE,
          Action.KEEP_EQUAL,
          Action.DROP_EQUAL);
  private static final Set<Action> CASE_OR_EQUAL =
      EnumSet.of(Action.LOWERCASE, Action.UPPERCASE, Action.KEEP_EQUAL, Action.DROP_EQUAL);

  private final List<String> sourceLabels;
  private final String separator;
  private final RelabelRegex regex;
  private final long modulus;
  private final String targetLabel;
  private final String replacement;
  private final Action action;

  private RelabelConfig(Builder b) {
    this.sourceLabels = List.copyOf(b.sourceLabels);
    this.separator = b.separator;
    this.regex = b.regex;
    this.modulus = b.modulus;
    this.targetLabel = b.targetLabel;
    this.replacement = b.replacement;
    this.action = b.action;
  }

  /** A builder holding Prometheus's defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Labels whose values are joined with {@link #separator()} to form the input. */
  public List<String> sourceLabels() {
    return sourceLabels;
  }

  public String separator() {
    return separator;
  }

  public RelabelRegex regex() {
    return regex;
  }

  /** Modulus for {@code hashmod}, an unsigned 64-bit value (0 when unset). */
  public long modulus() {
    return modulus;
  }

  /** The label written by the action ("" when unset); may contain {@code $1}-style references. */
  public String targetLabel() {
    return targetLabel;
  }

  public String replacement() {
    return replacement;
  }

  public Action action() {
    return action;
  }

  /** True for a legacy label name: {@code [a-zA-Z_][a-zA-Z0-9_]*}. */
  static boolean isValidLabelName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok =
          (c >= 'a' && c <= 'z')
              || (c >= 'A' && c <= 'Z')
              || c == '_'
              || (i > 0 && c >= '0' && c <= '9');
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RelabelConfig)) {
      return false;
    }
    RelabelConfig c = (RelabelConfig) o;
    return sourceLabels.equals(c.sourceLabels)
        && separator.equals(c.separator)
        && regex.equals(c.regex)
        && modulus == c.modulus
        && targetLabel.equals(c.targetLabel)
        && replacement.equals(c.replacement)
        && action == c.action;
  }

  @Override
  public int hashCode() {
    return Objects.hash(sourceLabels, separator, regex, modulus, targetLabel, replacement, action);
  }

  @Override
  public String toString() {
    return "{source_labels: "
        + sourceLabels
        + ", separator: "
        + GoQuote.quote(separator)
        + ", regex: "
        + GoQuote.quote(regex.source())
        + (modulus != 0 ? ", modulus: " + Long.toUnsignedString(modulus) : "")
        + ", target_label: "
        + GoQuote.quote(targetLabel)
        + ", replacement: "
        + GoQuote.quote(replacement)
        + ", action: "
        + action
        + "}";
  }

  /** Collects the fields of a relabel config. Not thread-safe. */
  public static final class Builder {
    private List<String> sourceLabels = List.of();
    private boolean sourceLabelsSet;
    private String separator = DEFAULT_SEPARATOR;
    private RelabelRegex regex = RelabelRegex.DEFAULT;
    private long modulus;
    private String targetLabel = "";
    private String replacement = DEFAULT_REPLACEMENT;
    private Action action = Action.REPLACE;

    private Builder() {}

    /** Sets the source labels; setting them at all (even to none) counts for validation. */
    public Builder sourceLabels(List<String> names) {
      for (String n : names) {
        if (!isValidLabelName(n)) {
          throw new IllegalArgumentException(GoQuote.quote(n) + " is not a valid label name");
        }
      }
      this.sourceLabels = List.copyOf(names);
      this.sourceLabelsSet = true;
      return this;
    }

    public Builder separator(String separator) {
      this.separator = Objects.requireNonNull(separator, "separator");
      return this;
    }

    /** Sets the regex; an explicit regex, even {@code (.*)}, counts as set for validation. */
    public Builder regex(RelabelRegex regex) {
      this.regex = Objects.requireNonNull(regex, "regex");
      return this;
    }

    /** Sets the regex from RE2 source; see {@link RelabelRegex#of(String)}. */
    public Builder regex(String source) {
      return regex(RelabelRegex.of(source));
    }

    /** Sets the modulus, read as an unsigned 64-bit value. */
    public Builder modulus(long modulus) {
      this.modulus = modulus;
      return this;
    }

    public Builder targetLabel(String targetLabel) {
      this.targetLabel = Objects.requireNonNull(targetLabel, "targetLabel");
      return this;
    }

    public Builder replacement(String replacement) {
      this.replacement = Objects.requireNonNull(replacement, "replacement");
      return this;
    }

    public Builder action(Action action) {
      this.action = Objects.requireNonNull(action, "action");
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException with Prometheus's message, for example {@code relabel
     *     configuration for hashmod requires non-zero modulus}
     */
    public RelabelConfig build() {
      validate();
      return new RelabelConfig(this);
    }

    // The checks and their order follow Config.Validate in model/relabel/relabel.go.
    private void validate() {
      if (modulus == 0 && action == Action.HASHMOD) {
        throw new IllegalArgumentException(
            "relabel configuration for hashmod requires non-zero modulus");
      }
      if (NEED_TARGET.contains(action) && targetLabel.isEmpty()) {
        throw new IllegalArgumentException(
            "relabel configuration for " + action + " action requires 'target_label' value");
      }
      boolean hasReference = targetLabel.contains("$");
      if (action == Action.REPLACE
          && (hasReference
              ? !TARGET_WITH_REFERENCES.matcher(targetLabel).matches()
              : !isValidLabelName(targetLabel))) {
        throw invalidTarget();
      }
      if (CASE_OR_EQUAL.contains(action) && !isValidLabelName(targetLabel)) {
        throw invalidTarget();
      }
      if (CASE_OR_EQUAL.contains(action) && !replacement.equals(DEFAULT_REPLACEMENT)) {
        throw new IllegalArgumentException(
            "'replacement' can not be set for " + action + " action");
      }
      if (action == Action.LABELMAP && !TARGET_WITH_REFERENCES.matcher(replacement).matches()) {
        throw new IllegalArgumentException(
            GoQuote.quote(replacement) + " is invalid 'replacement' for " + action + " action");
      }
      if (action == Action.HASHMOD && !isValidLabelName(targetLabel)) {
        throw invalidTarget();
      }
      if ((action == Action.DROP_EQUAL || action == Action.KEEP_EQUAL)
          && (regex != RelabelRegex.DEFAULT
              || modulus != 0
              || !separator.equals(DEFAULT_SEPARATOR)
              || !replacement.equals(DEFAULT_REPLACEMENT))) {
        throw new IllegalArgumentException(
            action
                + " action requires only 'source_labels' and `target_label`, and no other fields");
      }
      if ((action == Action.LABELDROP || action == Action.LABELKEEP)
          && (sourceLabelsSet
              || !targetLabel.isEmpty()
              || modulus != 0
              || !separator.equals(DEFAULT_SEPARATOR)
              || !replacement.equals(DEFAULT_REPLACEMENT))) {
        throw new IllegalArgumentException(
            action + " action requires only 'regex', and no other fields");
      }
    }

    private IllegalArgumentException invalidTarget() {
      return new IllegalArgumentException(
          GoQuote.quote(targetLabel) + " is invalid 'target_label' for " + action + " action");
    }
  }
}
