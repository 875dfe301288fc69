package dev.infermon.promql.engine;

import dev.infermon.model.labels.Labels;
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
      goQuote(sb, l.value(i));
    }
    return sb.append('}').toString();
  }

  /** Go's {@code strconv.Quote}, close enough for messages (printable Unicode kept as is). */
  static String goQuote(String s) {
    StringBuilder sb = new StringBuilder();
    goQuote(sb, s);
    return sb.toString();
  }

  static void goQuote(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\r':
          sb.append("\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    sb.append('"');
  }
}
