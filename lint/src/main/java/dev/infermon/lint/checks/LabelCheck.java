package dev.infermon.lint.checks;

import dev.infermon.lint.CheckId;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.text.Suggest;
import dev.infermon.promql.parser.VectorSelector;
import java.util.Set;
import java.util.TreeSet;

/**
 * Label matchers that need a label the metric does not carry: the selector matches nothing (for
 * example {@code model_name} on vLLM's {@code cache_config_info}, whose labels are the cache
 * config's fields). Matchers that also match an absent label ({@code x=""}, {@code x!="a"}, {@code
 * x=~".*"}) are fine, and so are the target labels scraping adds. Judged only where the labels are
 * known: a target exposes the metric, or the catalog lists its labels.
 */
final class LabelCheck {
  private LabelCheck() {}

  static void run(QueryScope s) {
    for (VectorSelector vs : s.selectors()) {
      MetricInfo info = s.info(vs);
      if (info == null || info.labels() == null || !info.exposed()) {
        continue;
      }
      for (Matcher m : vs.matchers()) {
        String label = m.name();
        if (info.labels().contains(label) || label.startsWith("__") || m.matches("")) {
          continue;
        }
        Set<String> own = new TreeSet<>(info.labels());
        own.removeAll(Reference.TARGET_LABELS);
        String close = Suggest.closest(label, own);
        s.report(
            CheckId.UNKNOWN_LABEL,
            s.at(vs),
            info.sample()
                + " has no label "
                + label
                + " (its own labels: "
                + (own.isEmpty() ? "none" : String.join(", ", own))
                + "); the matcher "
                + m
                + " selects nothing.",
            close != null ? "did you mean " + close + "?" : "drop the matcher " + m,
            label);
      }
    }
  }
}
