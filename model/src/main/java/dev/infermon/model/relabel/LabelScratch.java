package dev.infermon.model.relabel;

import dev.infermon.model.labels.Labels;
import java.util.ArrayList;
import java.util.List;

/**
 * The mutable label set that relabeling steps edit, with the iteration order of Prometheus's {@code
 * labels.Builder}: labels of the input that were not touched come first (sorted), then labels set
 * since, in the order they were first set. The order matters only when two labels map to the same
 * new name in {@code labelmap}: the later one wins, as in Prometheus.
 */
final class LabelScratch {
  private final List<String> names = new ArrayList<>();
  private final List<String> values = new ArrayList<>();
  private final List<Boolean> added = new ArrayList<>();

  LabelScratch(Labels input) {
    for (int i = 0; i < input.size(); i++) {
      names.add(input.name(i));
      values.add(input.value(i));
      added.add(Boolean.FALSE);
    }
  }

  String get(String name) {
    int i = names.indexOf(name);
    return i < 0 ? "" : values.get(i);
  }

  /** Sets a label; an empty value deletes it (a label with an empty value does not exist). */
  void set(String name, String value) {
    if (value.isEmpty()) {
      del(name);
      return;
    }
    int i = names.indexOf(name);
    if (i >= 0 && added.get(i)) {
      values.set(i, value);
      return;
    }
    if (i >= 0) {
      remove(i);
    }
    names.add(name);
    values.add(value);
    added.add(Boolean.TRUE);
  }

  void del(String name) {
    int i = names.indexOf(name);
    if (i >= 0) {
      remove(i);
    }
  }

  private void remove(int i) {
    names.remove(i);
    values.remove(i);
    added.remove(i);
  }

  /** A copy of the current names and values, safe to iterate while editing. */
  String[][] snapshot() {
    return new String[][] {names.toArray(new String[0]), values.toArray(new String[0])};
  }

  Labels toLabels() {
    Labels.Builder b = Labels.builder();
    for (int i = 0; i < names.size(); i++) {
      b.set(names.get(i), values.get(i));
    }
    return b.build();
  }
}
