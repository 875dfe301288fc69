package dev.infermon.rules.template;

import java.util.Map;
import java.util.Objects;

/**
 * One element of a {@code query} result as templates see it: {@code .Labels} (including {@code
 * __name__}) and {@code .Value}.
 */
public record QuerySample(Map<String, String> labels, double value) implements TemplateData {
  public QuerySample {
    labels = Map.copyOf(Objects.requireNonNull(labels, "labels"));
  }

  @Override
  public Object field(String name) {
    switch (name) {
      case "Labels":
        return labels;
      case "Value":
        return value;
      default:
        return NO_SUCH_FIELD;
    }
  }

  @Override
  public String typeName() {
    return "*template.sample";
  }

  @Override
  public String toString() {
    return "&{" + GoFormat.sprint(labels) + " " + GoFormat.sprint(value) + "}";
  }
}
