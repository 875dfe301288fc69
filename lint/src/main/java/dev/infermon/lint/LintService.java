package dev.infermon.lint;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.lint.checks.Reference;
import dev.infermon.lint.checks.SloCheck;
import dev.infermon.lint.run.LintInput;
import dev.infermon.lint.run.LintResult;
import dev.infermon.lint.run.LintRun;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.inventory.Inventory;
import dev.infermon.llm.inventory.InventoryService;
import dev.infermon.llm.inventory.LiveScrape;
import dev.infermon.llm.inventory.TargetInventory;
import dev.infermon.promql.parser.PromqlParser;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.LongSupplier;

/**
 * Lint's front door: {@code infermon lint} and {@code /api/v1/llm/lint} both come here. Linting is
 * two steps, because reading what to check against can fail (an endpoint down, the store slow)
 * while checking cannot: choose the reference ({@link #catalogOnly}, {@link #stored}, {@link
 * #live}), then run the inputs through it ({@link Checker#lint}). The stored reference is the
 * process's shared {@link InventoryService} read at now over {@link #DEFAULT_WINDOW} unless told
 * otherwise; live endpoints are scraped once with {@link #SCRAPE_TIMEOUT}.
 *
 * <p>Errors: {@link IllegalStateException} when the stored reference is asked of a service without
 * a store (the storage is not ready); the backend's {@code QueryException}s while reading the
 * stored inventory. An endpoint that cannot be scraped is no exception: it becomes an {@code
 * input-error} finding naming it and the reason, and the others are linted.
 *
 * <p>Threading: thread-safe when the backend is; a {@link Checker} is immutable.
 */
public final class LintService {
  /** How far back the stored reference looks when not told: as a PromQL duration. */
  public static final String DEFAULT_WINDOW = "1h";

  static final long DEFAULT_WINDOW_MS = PromqlParser.parseDuration(DEFAULT_WINDOW);

  /** How long one live endpoint may take to answer. */
  public static final Duration SCRAPE_TIMEOUT = Duration.ofSeconds(10);

  private final Catalog catalog;
  private final InventoryService inventories; // null: no store
  private final LongSupplier nowMs;

  /** Without a store: the catalog and live endpoints only. */
  public LintService(Catalog catalog) {
    this(catalog, null, System::currentTimeMillis);
  }

  /** Over the process's shared inventory service: the stored reference too. */
  public LintService(InventoryService inventories) {
    this(inventories.catalog(), inventories, System::currentTimeMillis);
  }

  LintService(Catalog catalog, InventoryService inventories, LongSupplier nowMs) {
    if (catalog == null) {
      throw new IllegalArgumentException("catalog is required");
    }
    this.catalog = catalog;
    this.inventories = inventories;
    this.nowMs = nowMs;
  }

  /** Names judged by the catalog's newest releases alone. */
  public Checker catalogOnly() {
    return new Checker(Reference.catalogOnly(catalog));
  }

  /**
   * Against what is stored: the targets with samples in the last {@code windowMs} (default {@link
   * #DEFAULT_WINDOW}) before now.
   *
   * @throws IllegalStateException when this service has no store
   */
  public Checker stored(OptionalLong windowMs) {
    if (inventories == null) {
      throw new IllegalStateException("the storage is not ready");
    }
    Inventory inv = inventories.inventory(nowMs.getAsLong(), windowMs.orElse(DEFAULT_WINDOW_MS));
    return new Checker(Reference.of(catalog, inv, Reference.Mode.STORED));
  }

  /**
   * Against what {@code endpoints} expose now, each scraped once. An endpoint that cannot be
   * scraped (refused, timed out, not a metrics page) is left out and reported as an {@code
   * input-error} finding at its URL, with the reason.
   */
  public Checker live(List<URI> endpoints) throws InterruptedException {
    LiveScrape scrape = new LiveScrape(catalog, SCRAPE_TIMEOUT);
    List<TargetInventory> targets = new ArrayList<>();
    List<Finding> unreachable = new ArrayList<>();
    for (URI u : endpoints) {
      try {
        targets.add(scrape.scrape(u));
      } catch (IOException | RuntimeException e) {
        unreachable.add(
            Finding.of(
                CheckId.INPUT_ERROR,
                Location.at(u.toString(), 0, 0),
                "cannot scrape the endpoint: " + reason(e),
                "",
                u.toString()));
      }
    }
    return new Checker(
        Reference.of(catalog, new Inventory(targets), Reference.Mode.LIVE), unreachable);
  }

  /** Why a scrape failed, in one line: the JDK's connection errors often carry no message. */
  private static String reason(Exception e) {
    String m = e.getMessage();
    String kind = e.getClass().getSimpleName();
    if (m == null || m.isBlank()) {
      return kind;
    }
    return m.lines().findFirst().orElse(m) + (m.contains(kind) ? "" : " (" + kind + ")");
  }

  /** The findings of one SLO's threshold against the engines' buckets, located at {@code at}. */
  public List<Finding> checkSlo(LlmConfig.Slo slo, Location at) {
    return SloCheck.check(slo, catalog, at);
  }

  /** Lints inputs against one reference, read once. Immutable; thread-safe. */
  public static final class Checker {
    private final Reference reference;
    private final List<Finding> problems;

    private Checker(Reference reference) {
      this(reference, List.of());
    }

    private Checker(Reference reference, List<Finding> problems) {
      this.reference = reference;
      this.problems = List.copyOf(problems);
    }

    /**
     * The sorted findings of {@code inputs}, with the reference's own problems (endpoints that
     * could not be scraped).
     */
    /**
     * The findings of one SLO's threshold against the engines' buckets in the releases this
     * checker's targets run (every catalogued release without targets), located at {@code at}.
     */
    public List<Finding> checkSlo(LlmConfig.Slo slo, Location at) {
      return SloCheck.check(slo, reference, at);
    }

    public LintResult lint(List<LintInput> inputs, LintOptions options) {
      LintResult r = new LintRun(reference, options).run(inputs);
      if (problems.isEmpty()) {
        return r;
      }
      List<Finding> all = new ArrayList<>(problems);
      all.addAll(r.findings());
      return new LintResult(all, r.inputs(), r.queries(), r.reference());
    }
  }
}
