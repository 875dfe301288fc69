package dev.infermon.model.relabel;

import dev.infermon.model.labels.Labels;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;

/**
 * Applies relabeling steps to a label set, as Prometheus's {@code relabel.Process} does.
 *
 * <p>Stateless and thread-safe. Neither the input nor the configs are modified.
 */
public final class Relabel {
  private Relabel() {}

  /**
   * Applies the steps in order.
   *
   * @return the relabeled labels, or null when a step dropped the label set
   */
  public static Labels process(Labels labels, List<RelabelConfig> configs) {
    if (configs.isEmpty()) {
      return labels;
    }
    LabelScratch lb = new LabelScratch(labels);
    for (RelabelConfig cfg : configs) {
      if (!apply(cfg, lb)) {
        return null;
      }
    }
    return lb.toLabels();
  }

  private static boolean apply(RelabelConfig cfg, LabelScratch lb) {
    String val = joinSources(cfg, lb);
    switch (cfg.action()) {
      case DROP:
        return !cfg.regex().matches(val);
      case KEEP:
        return cfg.regex().matches(val);
      case DROP_EQUAL:
        return !lb.get(cfg.targetLabel()).equals(val);
      case KEEP_EQUAL:
        return lb.get(cfg.targetLabel()).equals(val);
      case REPLACE:
        replace(cfg, lb, val);
        return true;
      case LOWERCASE:
        lb.set(cfg.targetLabel(), val.toLowerCase(Locale.ROOT));
        return true;
      case UPPERCASE:
        lb.set(cfg.targetLabel(), val.toUpperCase(Locale.ROOT));
        return true;
      case HASHMOD:
        lb.set(cfg.targetLabel(), Long.toUnsignedString(hashMod(val, cfg.modulus())));
        return true;
      case LABELMAP:
        labelMap(cfg, lb);
        return true;
      case LABELDROP:
      case LABELKEEP:
        labelDropOrKeep(cfg, lb, cfg.action() == Action.LABELKEEP);
        return true;
      default:
        throw new AssertionError(cfg.action());
    }
  }

  private static String joinSources(RelabelConfig cfg, LabelScratch lb) {
    List<String> sources = cfg.sourceLabels();
    if (sources.isEmpty()) {
      return "";
    }
    if (sources.size() == 1) {
      return lb.get(sources.get(0));
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sources.size(); i++) {
      if (i > 0) {
        sb.append(cfg.separator());
      }
      sb.append(lb.get(sources.get(i)));
    }
    return sb.toString();
  }

  private static void replace(RelabelConfig cfg, LabelScratch lb, String val) {
    // Prometheus's fast path: with the default regex an empty input sets the literal replacement.
    if (val.isEmpty()
        && cfg.regex() == RelabelRegex.DEFAULT
        && !cfg.targetLabel().contains("$")
        && !cfg.replacement().contains("$")) {
      lb.set(cfg.targetLabel(), cfg.replacement());
      return;
    }
    Matcher m = cfg.regex().fullMatch(val);
    if (m == null) {
      return; // no match, no replacement
    }
    String target = cfg.regex().expand(cfg.targetLabel(), m);
    if (!RelabelConfig.isValidLabelName(target)) {
      return;
    }
    String res = cfg.regex().expand(cfg.replacement(), m);
    if (res.isEmpty()) {
      lb.del(target);
    } else {
      lb.set(target, res);
    }
  }

  private static void labelMap(RelabelConfig cfg, LabelScratch lb) {
    String[][] snap = lb.snapshot();
    for (int i = 0; i < snap[0].length; i++) {
      Matcher m = cfg.regex().fullMatch(snap[0][i]);
      if (m != null) {
        String name = cfg.regex().expand(cfg.replacement(), m);
        // Prometheus would store an empty name and reject the series later; skip it here.
        if (!name.isEmpty()) {
          lb.set(name, snap[1][i]);
        }
      }
    }
  }

  private static void labelDropOrKeep(RelabelConfig cfg, LabelScratch lb, boolean keep) {
    for (String name : lb.snapshot()[0]) {
      if (cfg.regex().matches(name) != keep) {
        lb.del(name);
      }
    }
  }

  /**
   * MD5 of the UTF-8 bytes, last 8 bytes read big-endian as an unsigned 64-bit number, modulo the
   * modulus (unsigned): the same bytes Prometheus hashes, so targets shard identically.
   */
  static long hashMod(String value, long modulus) {
    byte[] digest = md5().digest(value.getBytes(StandardCharsets.UTF_8));
    long tail = ByteBuffer.wrap(digest, 8, 8).getLong();
    return Long.remainderUnsigned(tail, modulus);
  }

  private static MessageDigest md5() {
    try {
      return MessageDigest.getInstance("MD5");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides MD5", e);
    }
  }
}
