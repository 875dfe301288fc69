package dev.infermon.rules.template;

import java.util.Map;
import java.util.Objects;

/**
 * The data of an alert template (Prometheus's {@code AlertTemplateData}): {@code .Labels}, {@code
 * .ExternalLabels}, {@code .ExternalURL}, {@code .Value}; the same values are bound to {@code
 * $labels}, {@code $externalLabels}, {@code $externalURL} and {@code $value}.
 */
public record AlertData(
    Map<String, String> labels,
    Map<String, String> externalLabels,
    String externalUrl,
    double value)
    implements TemplateData {
  /** The variables alert templates may use without declaring them. */
  public static final java.util.List<String> VARIABLES =
      java.util.List.of("$labels", "$externalLabels", "$externalURL", "$value");

  public AlertData {
    labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
    externalLabels = Map.copyOf(Objects.requireNonNull(externalLabels, "externalLabels"));
    Objects.requireNonNull(externalUrl, "externalUrl");
  }

  @Override
  public Object field(String name) {
    switch (name) {
      case "Labels":
        return labels;
      case "ExternalLabels":
        return externalLabels;
      case "ExternalURL":
        return externalUrl;
      case "Value":
        return value;
      default:
        return NO_SUCH_FIELD;
    }
  }

  /** The values of {@link #VARIABLES}, in order. */
  java.util.List<Object> variableValues() {
    return java.util.List.of(labels, externalLabels, externalUrl, value);
  }

  @Override
  public String typeName() {
    return "struct { Labels map[string]string; ExternalLabels map[string]string; ExternalURL"
        + " string; Value interface {} }";
  }
}
