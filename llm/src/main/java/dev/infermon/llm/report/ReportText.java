package dev.infermon.llm.report;

import dev.infermon.llm.capacity.Headroom;
import dev.infermon.llm.diagnosis.Finding;
import dev.infermon.llm.efficiency.Figure;
import dev.infermon.llm.efficiency.Figures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A report as text for a terminal or as Markdown for a ticket or a wiki ({@code infermon report
 * --format text|markdown}): the same lines, Markdown adding headings, bullets and a table of the
 * SLOs. Figures keep four significant digits; an absent figure prints its reason. Stateless.
 */
public final class ReportText {
  private ReportText() {}

  /** The report for a terminal. */
  public static String text(Report r) {
    return render(r, false);
  }

  /** The report as Markdown. */
  public static String markdown(Report r) {
    return render(r, true);
  }

  private static String render(Report r, boolean md) {
    StringBuilder sb = new StringBuilder();
    String title =
        "infermon report, "
            + Instant.ofEpochMilli(r.startMs())
            + " to "
            + Instant.ofEpochMilli(r.endMs())
            + " (periods of "
            + r.periodMs() / 60_000
            + " min)";
    sb.append(md ? "# " + title : title).append('\n');
    for (ModelReport m : r.models()) {
      sb.append('\n').append(md ? "## " + m.model() : "== " + m.model()).append('\n');
      section(sb, md, "traffic");
      item(sb, md, traffic(m.traffic(), r.periodMs()));
      section(sb, md, "SLOs over the window");
      slos(sb, md, m.slos());
      section(sb, md, "worst periods by TTFT");
      worst(sb, md, m.worst());
      section(sb, md, "capacity headroom");
      if (m.headroom().isEmpty()) {
        item(sb, md, "no estimate: no pod of the model has the history's signals");
      }
      m.headroom().forEach(h -> item(sb, md, headroom(h)));
      section(sb, md, "efficiency and cost");
      if (m.efficiency().isEmpty()) {
        item(sb, md, "no figures: none of the model's pods could be read");
      } else {
        efficiency(sb, md, m.efficiency().get(), r.currency());
      }
    }
    return sb.toString();
  }

  private static void section(StringBuilder sb, boolean md, String title) {
    sb.append(md ? "\n### " + title + "\n\n" : title + "\n");
  }

  private static void item(StringBuilder sb, boolean md, String line) {
    sb.append(md ? "- " : "  ").append(line).append('\n');
  }

  private static String traffic(Traffic t, long periodMs) {
    return num(t.requests())
        + " requests, "
        + num(t.promptTokens())
        + " prompt tokens, "
        + num(t.generatedTokens())
        + " generated tokens; "
        + num(t.meanRate())
        + " req/s mean, "
        + num(t.peakRate())
        + " req/s peak ("
        + periodMs / 60_000
        + " min from "
        + Instant.ofEpochMilli(t.peakStartMs())
        + ")";
  }

  private static void slos(StringBuilder sb, boolean md, List<SloAttainment> slos) {
    if (md) {
      sb.append("| SLO | objective | attained | met | from |\n|---|---|---|---|---|\n");
    }
    for (SloAttainment s : slos) {
      String objective =
          (s.sli().equals("success")
                  ? "success"
                  : s.sli() + " <= " + num(s.thresholdSeconds()) + " s")
              + " for "
              + pct(s.objective());
      String attained =
          s.attainment().isPresent() ? pct(s.attainment().getAsDouble()) : "none: " + s.reason();
      String met = s.attainment().isEmpty() ? "-" : s.met() ? "met" : "MISSED";
      if (md) {
        sb.append(String.join(" | ", "| " + s.name(), objective, attained, met, s.source()))
            .append(" |\n");
      } else {
        item(
            sb,
            false,
            s.name()
                + ": "
                + objective
                + ", attained "
                + attained
                + " "
                + met
                + " ("
                + s.source()
                + ")");
      }
    }
  }

  private static void worst(StringBuilder sb, boolean md, List<WorstPeriod> worst) {
    if (worst.isEmpty()) {
      item(sb, md, "none: no TTFT measured in any period");
    }
    int i = 1;
    for (WorstPeriod w : worst) {
      // Markdown's numbered list, its findings nested under the number
      sb.append(md ? "" : "  ")
          .append(
              i++
                  + ". "
                  + Instant.ofEpochMilli(w.startMs())
                  + " to "
                  + Instant.ofEpochMilli(w.endMs())
                  + ": TTFT p"
                  + num(w.quantile() * 100)
                  + " "
                  + num(w.ttftSeconds())
                  + " s at "
                  + num(w.rate())
                  + " req/s")
          .append('\n');
      String indent = md ? "   - " : "       ";
      if (w.findings().isEmpty()) {
        sb.append(indent).append("diagnosis: nothing found in what could be read\n");
      }
      for (Finding f : w.findings()) {
        sb.append(indent)
            .append(f.state().id())
            .append(f.pod().isEmpty() ? "" : " " + f.namespace() + "/" + f.pod())
            .append(": ")
            .append(f.summary())
            .append('\n');
      }
    }
  }

  private static String headroom(Headroom h) {
    String where = h.namespace().isEmpty() ? "" : h.namespace() + ": ";
    if (!h.estimated()) {
      return where + "no estimate: " + h.reason();
    }
    StringBuilder sb = new StringBuilder(where);
    sb.append("ceiling ").append(num(h.ceilingRate().getAsDouble())).append(" req/s");
    if (h.ceilingLow().isPresent() && h.ceilingHigh().isPresent()) {
      sb.append(" (")
          .append(num(h.ceilingLow().getAsDouble()))
          .append(" to ")
          .append(num(h.ceilingHigh().getAsDouble()))
          .append(")");
    }
    if (h.headroom().isPresent() && h.currentRate().isPresent()) {
      sb.append(", ")
          .append(num(h.headroom().getAsDouble()))
          .append("x the current ")
          .append(num(h.currentRate().getAsDouble()))
          .append(" req/s");
    }
    sb.append("; ")
        .append(
            h.secondsToCeiling().isPresent()
                ? num(h.secondsToCeiling().getAsDouble() / 3600) + " h to the ceiling at the trend"
                : "no time to the ceiling: " + h.timeReason());
    return sb.toString();
  }

  private static void efficiency(StringBuilder sb, boolean md, Figures f, String currency) {
    List<String> lines = new ArrayList<>();
    lines.add("generated tokens per GPU-second: " + figure(f.tokensPerGpuSecond(), ""));
    lines.add("generated tokens per joule: " + figure(f.tokensPerJoule(), ""));
    lines.add(
        "GPU time: "
            + figure(f.gpuSeconds(), " GPU-s")
            + ", idle "
            + figure(f.idleGpuSeconds(), " GPU-s")
            // asleep (vLLM sleep mode) is idle by choice, never counted in idle
            + ", asleep "
            + figure(f.asleepGpuSeconds(), " GPU-s"));
    lines.add("cost: " + figure(f.cost(), " " + currency));
    lines.add(
        "cost per million generated tokens: " + figure(f.costPerMillionTokens(), " " + currency));
    lines.forEach(l -> item(sb, md, l));
  }

  private static String figure(Figure f, String unit) {
    return f.present() ? num(f.get()) + unit : "none (" + f.reason() + ")";
  }

  /** Four significant digits, without an exponent for everyday magnitudes. */
  static String num(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    return new java.math.BigDecimal(v)
        .round(new java.math.MathContext(4))
        .stripTrailingZeros()
        .toPlainString();
  }

  private static String pct(double ratio) {
    return num(ratio * 100) + "%";
  }
}
