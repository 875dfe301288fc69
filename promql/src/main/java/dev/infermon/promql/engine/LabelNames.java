package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.text.GoQuote;
import java.util.Set;

/** Label helpers shared by the evaluation code. Stateless. */
final class LabelNames {
  static final String NAME = Labels.METRIC_NAME;
  static final String BUCKET = "le";
  static final String QUANTILE = "quantile";

  /**
   * The labels Prometheus drops with the name: {@code __name__}, {@code __type__}, {@code
   * __unit__}.
   */
  private static final Set<String> METADATA = Set.of(NAME, "__type__", "__unit__");

  private LabelNames() {}

  /** The labels without the metric name and the other metadata labels. */
  static Labels dropMetadata(Labels l) {
    if (!l.has(NAME) && !l.has("__type__") && !l.has("__unit__")) {
      return l;
    }
    return l.without(METADATA);
  }

  /** A valid UTF-8 label name (Prometheus 3): non-empty and well-formed. */
  static boolean isValidLabelName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 >= name.length() || !Character.isLowSurrogate(name.charAt(i + 1))) {
          return false;
        }
        i++;
      } else if (Character.isLowSurrogate(c)) {
        return false;
      }
    }
    return true;
  }

  /** Go's {@code labels.Labels.String()}: {@code {__name__="x", a="b"}}, values Go-quoted. */
  static String goString(Labels l) {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < l.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(l.name(i)).append('=');
      sb.append(GoQuote.quote(l.value(i)));
    }
    return sb.append('}').toString();
  }
}
