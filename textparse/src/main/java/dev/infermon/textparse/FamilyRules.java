package dev.infermon.textparse;

import java.nio.charset.StandardCharsets;

/** Helpers the family rules of both formats share: labels by name, group keys, numbers. */
abstract class FamilyRules {
  static final byte[] LE = "le".getBytes(StandardCharsets.US_ASCII);
  static final byte[] QUANTILE = "quantile".getBytes(StandardCharsets.US_ASCII);

  final BaseParser p;
  final HistogramGroup histogram = new HistogramGroup();

  FamilyRules(BaseParser p) {
    this.p = p;
  }

  /** The index of the sample's label named by these bytes, or -1. */
  final int label(byte[] name) {
    return p.labels.indexOf(p.b, name);
  }

  /** The index of the sample's label whose name equals the String, or -1. */
  final int label(String name) {
    for (int i = 0; i < p.labels.count; i++) {
      if (p.labelName(i).equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /**
   * A hash of the sample's labels without the one at {@code skip} (-1: none), independent of their
   * order: samples of one group may write their labels in different orders.
   */
  final long groupKey(int skip) {
    Spans s = p.labels;
    long key = 0x51ED27;
    for (int i = 0; i < s.count; i++) {
      if (i == skip) {
        continue;
      }
      long h = BaseParser.hash(p.b, s.nameStart(i), s.nameEnd(i)) * 0x9E3779B97F4A7C15L;
      h ^= BaseParser.hash(p.b, s.valueStart(i), s.valueEnd(i));
      h *= 0xC2B2AE3D27D4EB4FL;
      key += h ^ (h >>> 29);
    }
    return key;
  }

  /** Parses the value of label {@code i} as a float; false when it is not one. */
  final boolean labelNumber(int i) {
    return p.numbers.parseFloat(p.b, p.labels.valueStart(i), p.labels.valueEnd(i));
  }

  final String labelText(int i) {
    return Messages.quote(p.b, p.labels.valueStart(i), p.labels.valueEnd(i));
  }

  final int labelColumnPos(int i) {
    return p.labels.nameStart(i);
  }

  static boolean isInteger(double v) {
    return !Double.isInfinite(v) && v == Math.rint(v);
  }

  static String q(String s) {
    return Messages.quote(s);
  }
}
