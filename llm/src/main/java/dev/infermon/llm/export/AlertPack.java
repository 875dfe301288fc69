package dev.infermon.llm.export;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.catalog.EngineCatalog;
import dev.infermon.llm.catalog.NameVariant;
import dev.infermon.llm.catalog.Spelling;
import dev.infermon.llm.dashboard.Filters;
import dev.infermon.llm.dashboard.Measure;
import dev.infermon.llm.dashboard.Presence;
import dev.infermon.llm.dashboard.PromqlCompiler;
import dev.infermon.llm.signals.Signal;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The default alert pack, generated from the catalog for the engines present: few, user-facing
 * alerts with long {@code for}: TTFT quantile over target, requests piling up while the engine
 * preempts (or, on an engine that never preempts, such as llama.cpp's slots, requests piling up for
 * a slot), and failures above a share of finished requests (thresholds from {@code llm.alerts}).
 * Each rule unions the engines' families in every chosen spelling ({@code vllm:}, {@code
 * ray_vllm:}, NIM's unprefixed names, {@code sglang:}, the gateway's {@code sglang_}), so one rule
 * covers a mixed fleet, and an engine or spelling that is absent adds nothing; the TTFT quantile is
 * computed per engine, whose bucket bounds differ. It is the only default pack: {@code infermon
 * serve} loads it (for every engine of the catalog) and {@code infermon export rules} writes it.
 * Stateless.
 */
public final class AlertPack {
  /** The rule group's name. */
  public static final String GROUP = "infermon-llm";

  public static final String TTFT = "LLMTimeToFirstTokenHigh";
  public static final String QUEUED = "LLMRequestsQueuedWhilePreempting";
  public static final String FAILURES = "LLMRequestFailuresHigh";
  public static final String SLOTS = "LLMRequestsWaitingForSlot";

  private static final List<String> BY = List.of("namespace", "model_name");

  /** An engine that names no model on its page (llama.cpp) is told apart by its workload. */
  private static final List<String> BY_WORKLOAD = List.of("namespace", "workload_name");

  /** The label telling the preempting engines' queues apart inside the queue rule. */
  private static final String ENGINE_LABEL = "infermon_engine";

  private AlertPack() {}

  /**
   * The rules for {@code engines} in every spelling the catalog knows for them.
   *
   * @throws IllegalArgumentException for an unknown engine
   */
  public static List<AlertRule> rules(
      Catalog catalog, Set<String> engines, LlmConfig.Alerts alerts) {
    List<Spelling> all = new ArrayList<>();
    for (String e : engines) {
      all.addAll(catalog.engine(e).spellings());
    }
    return rulesFor(catalog, all, alerts);
  }

  /**
   * The rules reading the families of {@code spellings} only: each rule joins them with {@code or},
   * so one rule covers a fleet of several spellings and an absent spelling adds an empty branch.
   * Written before any target is seen, they read the routers' current generations only (a family
   * with an end date, NVIDIA Dynamo's {@code nv_llm_http_service_*}, is what lint tells a user to
   * replace); an export for a fleet that has an older generation reads it too.
   */
  public static List<AlertRule> rulesFor(
      Catalog catalog, List<Spelling> spellings, LlmConfig.Alerts alerts) {
    java.util.function.Predicate<String> current =
        f -> catalog.nonEngine().lookup(f).map(m -> !m.gone()).orElse(true);
    return rulesFor(catalog, spellings, alerts, (e, v, m) -> true, current, Map.of());
  }

  /**
   * The rules reading the families of {@code spellings} that {@code fleet} also has (an export for
   * known targets: {@link TargetPresence}), and the router queues whose family {@code routers}
   * accepts; a rule none of whose families the fleet has is left out. An engine in {@code ttft} is
   * compared with that TTFT threshold instead of the configured one ({@link FleetThresholds}: the
   * largest bucket bound at or under it that every target of the engine has).
   */
  static List<AlertRule> rulesFor(
      Catalog catalog,
      List<Spelling> spellings,
      LlmConfig.Alerts alerts,
      Presence fleet,
      java.util.function.Predicate<String> routers,
      Map<String, Double> lowered) {
    PromqlCompiler c = new PromqlCompiler(catalog);
    PromqlCompiler.Options o = options(alerts, new LinkedHashSet<>(spellings), fleet);
    List<AlertRule> out = new ArrayList<>();
    String q = percent(alerts.ttftQuantile());
    ttft(c, catalog, spellings, alerts, fleet, routers, lowered)
        .ifPresent(
            ttft ->
                out.add(
                    new AlertRule(
                        TTFT,
                        ttft,
                        alerts.ttftFor(),
                        Map.of("severity", "warning"),
                        Map.of(
                            "summary",
                                "TTFT p"
                                    + q
                                    + " of {{ $labels.model_name }} is above "
                                    + seconds(alerts.ttftThreshold())
                                    + "s"
                                    + lowered(catalog, lowered, alerts),
                            "description",
                                "Users of {{ $labels.model_name }} in {{ $labels.namespace }} wait {{ $value | humanizeDuration }} (p"
                                    + q
                                    + ") for their first token."))));
    queued(c, catalog, spellings, alerts, fleet)
        .ifPresent(
            expr ->
                out.add(
                    new AlertRule(
                        QUEUED,
                        expr,
                        alerts.waitingFor(),
                        Map.of("severity", "warning"),
                        Map.of(
                            "summary",
                            "{{ $labels.model_name }}: more than "
                                + alerts.waitingThreshold()
                                + " requests wait while the engine preempts",
                            "description",
                            "{{ $value }} requests wait for {{ $labels.model_name }} in {{ $labels.namespace }} and the KV cache is preempting: add capacity or review KV-cache and batch settings."))));
    slots(c, catalog, spellings, alerts, fleet).ifPresent(out::add);
    failures(c, o, alerts)
        .ifPresent(
            expr ->
                out.add(
                    new AlertRule(
                        FAILURES,
                        expr,
                        alerts.failureFor(),
                        Map.of("severity", "warning"),
                        Map.of(
                            "summary",
                            "{{ $labels.model_name }}: more than "
                                + percent(alerts.failureRatio())
                                + "% of requests fail",
                            "description",
                            "{{ $value | humanizePercentage }} of the requests to {{ $labels.model_name }} in {{ $labels.namespace }} finish with abort or error."))));
    RouterAlerts.queue(catalog, alerts, routers).ifPresent(out::add);
    return out;
  }

  /**
   * Requests piling up while the engine preempts, per engine that has both signals: each engine's
   * queue over the threshold {@code and} that engine's preemptions, joined with {@code or}. The
   * queue of the engines and spellings that report no preemption (TGI, NIM, llama.cpp, ...) is left
   * out, as is a second preempting engine's: a model of one name served by several engines would
   * otherwise add queues of pods that do not preempt to those of pods that do, and fire on a queue
   * no preemption explains ({@code LLMRequestsWaitingForSlot} reads the others').
   */
  private static Optional<String> queued(
      PromqlCompiler c,
      Catalog catalog,
      List<Spelling> spellings,
      LlmConfig.Alerts alerts,
      Presence fleet) {
    Map<String, String> parts = new LinkedHashMap<>();
    for (Set<Spelling> one : catalog.servingBy(Signal.PREEMPTIONS, spellings)) {
      PromqlCompiler.Options o = options(alerts, one, fleet);
      var waiting = c.compile(new Measure.Level(Signal.REQUESTS_WAITING), BY, o);
      var preempt = c.compile(new Measure.Rate(Signal.PREEMPTIONS), BY, o);
      if (waiting.isPresent() && preempt.isPresent()) {
        parts.put(
            one.iterator().next().engine(),
            "("
                + waiting.get()
                + " > "
                + alerts.waitingThreshold()
                + ") and ("
                + preempt.get()
                + " > 0)");
      }
    }
    return largest(parts);
  }

  /**
   * The engines' parts joined so that the value is the largest of those that hold: each part under
   * an {@link #ENGINE_LABEL} of its own, so that {@code or} keeps them all, then the {@code max}
   * per model (a plain {@code or} keeps the first engine's and drops the others' of the same
   * model).
   */
  private static Optional<String> largest(Map<String, String> parts) {
    if (parts.size() <= 1) {
      return parts.values().stream().findFirst();
    }
    List<String> marked = new ArrayList<>();
    parts.forEach(
        (engine, part) ->
            marked.add(
                "label_replace("
                    + part
                    + ", \""
                    + ENGINE_LABEL
                    + "\", \""
                    + engine
                    + "\", \"\", \"\")"));
    return Optional.of(
        "max by (" + String.join(", ", BY) + ") (" + String.join(" or ", marked) + ")");
  }

  /**
   * The failing share over its ratio, counted only where at least {@code failureMinCount} requests
   * failed over the rate window (the failed rate times its seconds, as diagnosis counts them): a
   * share of a few requests says nothing, and one failure in four would fire at 25 %. The share is
   * the left operand, so it stays the alert's value.
   */
  private static Optional<String> failures(
      PromqlCompiler c, PromqlCompiler.Options o, LlmConfig.Alerts alerts) {
    Optional<String> success = c.compile(new Measure.SuccessRate(), BY, o);
    if (success.isEmpty()) {
      return Optional.empty();
    }
    String share = "1 - (" + success.get() + ") > " + num(alerts.failureRatio());
    if (alerts.failureMinCount() == 0) {
      return Optional.of(share);
    }
    Optional<String> failed = c.compile(new Measure.Rate(Signal.REQUESTS_FAILED), BY, o);
    // without a failure counter there is no failure to count (the share is 0 there too)
    return failed.map(
        f ->
            "("
                + share
                + ") and ("
                + f
                + ") * "
                + LlmConfig.Alerts.RATE_WINDOW_SECONDS
                + " >= "
                + alerts.failureMinCount());
  }

  /**
   * Requests piling up on the engines that have a queue but no preemption signal, and on the
   * spellings that serve none of their engine's (NVIDIA NIM): their waiting requests wait for a
   * slot (llama.cpp's deferred tasks), which the queue-while-preempting rule can never see, since
   * it needs preemptions.
   */
  private static Optional<AlertRule> slots(
      PromqlCompiler c,
      Catalog catalog,
      List<Spelling> spellings,
      LlmConfig.Alerts alerts,
      Presence fleet) {
    Set<Spelling> noPreemption = new LinkedHashSet<>();
    for (Spelling s : spellings) {
      if (!catalog.serves(Signal.PREEMPTIONS, s)) {
        noPreemption.add(s);
      }
    }
    if (noPreemption.isEmpty()) {
      return Optional.empty();
    }
    String remedy = remedy(catalog, noPreemption);
    return c.compile(
            new Measure.Level(Signal.REQUESTS_WAITING),
            BY_WORKLOAD,
            options(alerts, noPreemption, fleet))
        .map(
            waiting ->
                new AlertRule(
                    SLOTS,
                    waiting + " > " + alerts.waitingThreshold(),
                    alerts.waitingFor(),
                    Map.of("severity", "warning"),
                    Map.of(
                        "summary",
                        "{{ $labels.workload_name }}: more than "
                            + alerts.waitingThreshold()
                            + " requests wait for a free slot",
                        "description",
                        "{{ $value }} requests of {{ $labels.workload_name }} in {{ $labels.namespace }} wait for a free slot of an engine that reports no preemptions: add replicas or "
                            + remedy
                            + ".")));
  }

  /**
   * What to raise, from the catalog's {@code concurrency_flags} of the engines the rule reads, each
   * named: the rule covers them all in one expression, so its text names every one.
   */
  private static String remedy(Catalog catalog, Set<Spelling> spellings) {
    Map<String, List<String>> flags = new LinkedHashMap<>();
    for (Spelling s : spellings) {
      NameVariant v = s.variant();
      if (!v.concurrencyFlags().isEmpty()) {
        flags.putIfAbsent(v.product(), v.concurrencyFlags());
      } else {
        EngineCatalog ec = catalog.engine(s.engine());
        if (!ec.concurrencyFlags().isEmpty()) {
          flags.putIfAbsent(ec.title(), ec.concurrencyFlags());
        }
      }
    }
    List<String> parts = new ArrayList<>();
    flags.forEach((who, f) -> parts.add(who + ": " + String.join(", ", f)));
    return "raise how many requests a replica runs at once"
        + (parts.isEmpty() ? "" : " (" + String.join("; ", parts) + ")");
  }

  private static PromqlCompiler.Options options(
      LlmConfig.Alerts alerts, Set<Spelling> spellings, Presence fleet) {
    Presence chosen = Presence.spellings(spellings);
    return new PromqlCompiler.Options(
        Filters.NONE,
        Map.of(),
        alerts.ttftQuantile(),
        LlmConfig.Alerts.RATE_WINDOW_SECONDS / 60 + "m",
        chosen.and(fleet));
  }

  /**
   * The TTFT condition: the quantile computed per engine, each compared with the threshold, joined
   * with {@code or}. The engines' bucket bounds differ (vLLM's and SGLang's TTFT histograms share
   * only 0.1, 1 and 10 s), so buckets summed by {@code le} across engines would interpolate between
   * bounds of different histograms and give a quantile neither engine measured. Spellings of one
   * engine share its bounds and are summed together. Where a router times the first token as the
   * user sees it (NVIDIA Dynamo's frontend: routing, prefill and KV transfer included, which a
   * decode worker's own TTFT leaves out), its quantile is compared instead, and the engines' only
   * for the models no such router times ({@code unless on (namespace, model_name)}).
   */
  private static Optional<String> ttft(
      PromqlCompiler c,
      Catalog catalog,
      List<Spelling> spellings,
      LlmConfig.Alerts alerts,
      Presence fleet,
      java.util.function.Predicate<String> routers,
      Map<String, Double> lowered) {
    Map<String, Set<Spelling>> byEngine = new LinkedHashMap<>();
    for (Spelling s : spellings) {
      byEngine.computeIfAbsent(s.engine(), k -> new LinkedHashSet<>()).add(s);
    }
    Map<String, String> parts = new LinkedHashMap<>();
    for (Map.Entry<String, Set<Spelling>> one : byEngine.entrySet()) {
      // a lowered threshold may be a set's largest finite bound, which is what the quantile
      // returns when it lies in +Inf there: ">" would never hold on those pods, ">=" does
      Double t = lowered.get(one.getKey());
      String cmp = t == null ? " > " + seconds(alerts.ttftThreshold()) : " >= " + num(t);
      c.compile(new Measure.Quantile(Signal.TTFT, null), BY, options(alerts, one.getValue(), fleet))
          .ifPresent(e -> parts.put(one.getKey(), e + cmp));
    }
    Optional<String> engines = largest(parts);
    String window = LlmConfig.Alerts.RATE_WINDOW_SECONDS / 60 + "m";
    List<String> user = RouterAlerts.userTtft(catalog, alerts.ttftQuantile(), window, routers);
    if (user.isEmpty()) {
      return engines;
    }
    List<String> out = new ArrayList<>();
    if (engines.isPresent()) {
      out.add(
          "(("
              + engines.get()
              + ") unless on (namespace, model_name) ("
              + String.join(" or ", user)
              + "))");
    }
    user.forEach(u -> out.add(u + " > " + seconds(alerts.ttftThreshold())));
    return Optional.of(String.join(" or ", out));
  }

  /** What the summary adds for the engines compared with a lower bound: which, and why. */
  private static String lowered(Catalog catalog, Map<String, Double> ttft, LlmConfig.Alerts a) {
    if (ttft.isEmpty()) {
      return "";
    }
    List<String> parts = new ArrayList<>();
    ttft.forEach((e, b) -> parts.add(catalog.engine(e).title() + " at " + num(b) + "s"));
    return " ("
        + String.join(", ", parts)
        + ": the largest bucket bound under "
        + seconds(a.ttftThreshold())
        + "s that all its targets have)";
  }

  /**
   * The pack as a Prometheus rule file (group {@link #GROUP}) for {@code engines}.
   *
   * @throws IllegalArgumentException for an unknown engine
   */
  public static String ruleFile(Catalog catalog, Set<String> engines, LlmConfig.Alerts alerts) {
    return RuleFiles.prometheusRuleFile(GROUP, rules(catalog, engines, alerts));
  }

  /** {@code q} in percent, exactly as written ({@code 0.07} is 7, not 7.000000000000001). */
  private static String percent(double q) {
    return new BigDecimal(Double.toString(q))
        .movePointRight(2)
        .stripTrailingZeros()
        .toPlainString();
  }

  private static String seconds(Duration d) {
    return num(d.toMillis() / 1000.0);
  }

  private static String num(double d) {
    return new BigDecimal(Double.toString(d)).stripTrailingZeros().toPlainString();
  }
}
