package dev.infermon.textparse;

import java.util.Objects;

/**
 * Limits and rules for parsing one page. Immutable; build with {@link #builder()}, start from
 * {@link #DEFAULT}.
 *
 * <p>Limits are enforced while reading: a parser over an {@link java.io.InputStream} never holds
 * more than one line (at most {@link #maxLineBytes()}) plus one read chunk, and stops reading once
 * the body passes {@link #maxBodyBytes()}.
 *
 * @param maxBodyBytes the largest page accepted, in bytes
 * @param maxLineBytes the longest line accepted, in bytes, without its newline
 * @param maxLabels the most labels on one series, not counting the metric name
 * @param maxLabelNameBytes the longest label name, in bytes
 * @param maxLabelValueBytes the longest label value, in bytes as written (escapes included)
 * @param textConformance the rules enforced on text-format pages
 * @param openMetricsConformance the rules enforced on OpenMetrics pages
 */
public record ParserOptions(
    long maxBodyBytes,
    int maxLineBytes,
    int maxLabels,
    int maxLabelNameBytes,
    int maxLabelValueBytes,
    Conformance textConformance,
    Conformance openMetricsConformance) {

  /** 64 MiB: far above any inference server's page (vLLM's is about 50 KB). */
  public static final long DEFAULT_MAX_BODY_BYTES = 64L << 20;

  /** 128 KiB: the longest real line seen (a Ray-labelled bucket) is under 1 KB. */
  public static final int DEFAULT_MAX_LINE_BYTES = 128 << 10;

  /** 128 labels per series. */
  public static final int DEFAULT_MAX_LABELS = 128;

  /** 1 KiB per label name. */
  public static final int DEFAULT_MAX_LABEL_NAME_BYTES = 1 << 10;

  /** 16 KiB per label value. */
  public static final int DEFAULT_MAX_LABEL_VALUE_BYTES = 16 << 10;

  /**
   * The defaults: the limits above, {@link Conformance#LENIENT} text (as Prometheus scrapes it) and
   * {@link Conformance#STRICT} OpenMetrics (as its specification and conformance suite define it).
   */
  public static final ParserOptions DEFAULT =
      new ParserOptions(
          DEFAULT_MAX_BODY_BYTES,
          DEFAULT_MAX_LINE_BYTES,
          DEFAULT_MAX_LABELS,
          DEFAULT_MAX_LABEL_NAME_BYTES,
          DEFAULT_MAX_LABEL_VALUE_BYTES,
          Conformance.LENIENT,
          Conformance.STRICT);

  /** Validates every field; prefer {@link #builder()}. */
  public ParserOptions {
    positive("maxBodyBytes", maxBodyBytes);
    positive("maxLineBytes", maxLineBytes);
    if (maxLineBytes > (1 << 30)) {
      throw new IllegalArgumentException("maxLineBytes must be at most 1 GiB: " + maxLineBytes);
    }
    if (maxLabels < 0) {
      throw new IllegalArgumentException("maxLabels must not be negative: " + maxLabels);
    }
    positive("maxLabelNameBytes", maxLabelNameBytes);
    positive("maxLabelValueBytes", maxLabelValueBytes);
    Objects.requireNonNull(textConformance, "textConformance");
    Objects.requireNonNull(openMetricsConformance, "openMetricsConformance");
  }

  private static void positive(String name, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + v);
    }
  }

  /** The rules enforced on pages of this format. */
  public Conformance conformance(Format format) {
    return format == Format.OPENMETRICS ? openMetricsConformance : textConformance;
  }

  /** A builder starting from {@link #DEFAULT}. */
  public static Builder builder() {
    return new Builder(DEFAULT);
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Builds {@link ParserOptions}; each setter's argument is validated by {@link #build()}. */
  public static final class Builder {
    private long maxBodyBytes;
    private int maxLineBytes;
    private int maxLabels;
    private int maxLabelNameBytes;
    private int maxLabelValueBytes;
    private Conformance textConformance;
    private Conformance openMetricsConformance;

    private Builder(ParserOptions o) {
      maxBodyBytes = o.maxBodyBytes;
      maxLineBytes = o.maxLineBytes;
      maxLabels = o.maxLabels;
      maxLabelNameBytes = o.maxLabelNameBytes;
      maxLabelValueBytes = o.maxLabelValueBytes;
      textConformance = o.textConformance;
      openMetricsConformance = o.openMetricsConformance;
    }

    public Builder maxBodyBytes(long v) {
      maxBodyBytes = v;
      return this;
    }

    public Builder maxLineBytes(int v) {
      maxLineBytes = v;
      return this;
    }

    public Builder maxLabels(int v) {
      maxLabels = v;
      return this;
    }

    public Builder maxLabelNameBytes(int v) {
      maxLabelNameBytes = v;
      return this;
    }

    public Builder maxLabelValueBytes(int v) {
      maxLabelValueBytes = v;
      return this;
    }

    public Builder textConformance(Conformance v) {
      textConformance = v;
      return this;
    }

    public Builder openMetricsConformance(Conformance v) {
      openMetricsConformance = v;
      return this;
    }

    /** Sets the same conformance for both formats. */
    public Builder conformance(Conformance v) {
      textConformance = v;
      openMetricsConformance = v;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException naming the first invalid value
     */
    public ParserOptions build() {
      return new ParserOptions(
          maxBodyBytes,
          maxLineBytes,
          maxLabels,
          maxLabelNameBytes,
          maxLabelValueBytes,
          textConformance,
          openMetricsConformance);
    }
  }
}
