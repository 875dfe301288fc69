package dev.infermon.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fails the build when a module depends against the intended direction (docs/architecture.md). Each
 * module owns one root package {@code dev.infermon.<module>}; the layers below list, for each
 * module, the only modules it may use. Maven already forbids cycles between modules; this test also
 * forbids edges that Maven would allow (a pom gaining a dependency it should not have).
 */
class ArchitectureTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // other modules' test kits arrive as their -tests.jar, which the option above misses
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("dev.infermon");
  }

  @Test
  void modulesDependOneWay() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .withOptionalLayers(true)
        .layer("model")
        .definedBy("dev.infermon.model..")
        .layer("textparse")
        .definedBy("dev.infermon.textparse..")
        .layer("config")
        .definedBy("dev.infermon.config..")
        .layer("storage")
        .definedBy("dev.infermon.storage..")
        .layer("tsdb")
        .definedBy("dev.infermon.tsdb..")
        .layer("promql")
        .definedBy("dev.infermon.promql..")
        .layer("rules")
        .definedBy("dev.infermon.rules..")
        .layer("notifier")
        .definedBy("dev.infermon.notifier..")
        .layer("discovery")
        .definedBy("dev.infermon.discovery..")
        .layer("scrape")
        .definedBy("dev.infermon.scrape..")
        .layer("remote")
        .definedBy("dev.infermon.remote..")
        .layer("web")
        .definedBy("dev.infermon.web..")
        .layer("simulator")
        .definedBy("dev.infermon.simulator..")
        .layer("llm")
        .definedBy("dev.infermon.llm..")
        .layer("lint")
        .definedBy("dev.infermon.lint..")
        .layer("server")
        .definedBy("dev.infermon.server..")
        .whereLayer("server")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("web")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("remote")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("simulator")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("lint")
        .mayOnlyBeAccessedByLayers("web", "server")
        .whereLayer("llm")
        .mayOnlyBeAccessedByLayers("lint", "web", "server")
        .whereLayer("rules")
        .mayOnlyBeAccessedByLayers("lint", "server")
        .whereLayer("notifier")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("promql")
        .mayOnlyBeAccessedByLayers("rules", "remote", "web", "llm", "lint", "server")
        .whereLayer("tsdb")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("scrape")
        .mayOnlyBeAccessedByLayers("server")
        .whereLayer("discovery")
        .mayOnlyBeAccessedByLayers("scrape", "server")
        .whereLayer("textparse")
        .mayOnlyBeAccessedByLayers("scrape", "simulator", "llm", "lint", "server")
        .whereLayer("config")
        .mayOnlyBeAccessedByLayers(
            "discovery", "scrape", "rules", "notifier", "remote", "web", "llm", "lint", "server")
        .whereLayer("storage")
        .mayOnlyBeAccessedByLayers("tsdb", "promql", "rules", "scrape", "remote", "web", "server")
        .whereLayer("model")
        .mayOnlyBeAccessedByLayers(
            "textparse",
            "config",
            "storage",
            "tsdb",
            "promql",
            "rules",
            "notifier",
            "discovery",
            "scrape",
            "remote",
            "web",
            "simulator",
            "llm",
            "lint",
            "server")
        .check(classes);
  }

  /**
   * The LLM layer speaks PromQL only, so its dashboards also run against a remote Prometheus; it is
   * handed the process's query stack and never builds one ({@code promql.backend}).
   */
  @Test
  void llmUsesTheQueryBackendNeverTheEngineOrStorage() {
    noClasses()
        .that()
        .resideInAPackage("dev.infermon.llm..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.infermon.promql.engine..",
            "dev.infermon.promql.backend..",
            "dev.infermon.storage..",
            "dev.infermon.tsdb..")
        .check(classes);
  }

  /**
   * Lint speaks PromQL too, and of the rules module uses only rule-file loading (rulefmt): never
   * evaluation, the engine or storage.
   */
  @Test
  void lintUsesTheQueryBackendAndRuleLoadingOnly() {
    noClasses()
        .that()
        .resideInAPackage("dev.infermon.lint..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.infermon.promql.engine..",
            "dev.infermon.promql.backend..",
            "dev.infermon.storage..",
            "dev.infermon.tsdb..",
            "dev.infermon.rules",
            "dev.infermon.rules.unittest..",
            "dev.infermon.rules.defaults..")
        .check(classes);
  }

  /** Lint builds on the LLM layer (catalog, inventory, compiler); the LLM layer never on lint. */
  @Test
  void lintDependsOnLlmNeverTheReverse() {
    noClasses()
        .that()
        .resideInAPackage("dev.infermon.llm..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("dev.infermon.lint..")
        .check(classes);
  }

  /**
   * Inside the LLM layer, packages read one way. An arrow {@code a → b} means "{@code b} may use
   * {@code a}": data flows along it, and no edge goes back towards the catalog.
   *
   * <pre>
   * signals → catalog → inventory → dashboard → diagnosis
   *                                 dashboard → export
   *                                 dashboard → efficiency
   *           catalog → slo ─────────────────→ export
   *             diagnosis, efficiency, slo (and capacity) → report
   * </pre>
   *
   * <p>Each package may also use everything upstream of the arrows into it ({@code diagnosis} the
   * catalog and the signals), never anything downstream or beside it.
   *
   * <p>{@code signals} (the canonical signals) is the catalog's vocabulary; {@code catalog} the
   * engines' metrics as data; {@code inventory} what a fleet runs, detected with the catalog;
   * {@code dashboard} panels compiled to PromQL for an inventory; {@code diagnosis} the causal
   * chain over the dashboard's compiler and the inventory; {@code slo} rules and status from the
   * catalog's SLI sources; {@code export} files generated from the dashboard, the catalog and the
   * SLO rules; {@code efficiency} tokens per GPU-second, per joule and per unit of cost over the
   * dashboard's compiler; {@code report} the services' answers joined per model over a window. The
   * root package {@code dev.infermon.llm} holds what every service shares (the named error) and
   * uses none of them.
   */
  @Test
  void llmPackagesReadFromTheCatalogOutwards() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("root")
        .definedBy("dev.infermon.llm")
        .layer("signals")
        .definedBy("dev.infermon.llm.signals..")
        .layer("catalog")
        .definedBy("dev.infermon.llm.catalog..")
        .layer("inventory")
        .definedBy("dev.infermon.llm.inventory..")
        .layer("dashboard")
        .definedBy("dev.infermon.llm.dashboard..")
        .layer("diagnosis")
        .definedBy("dev.infermon.llm.diagnosis..")
        .layer("slo")
        .definedBy("dev.infermon.llm.slo..")
        .layer("export")
        .definedBy("dev.infermon.llm.export..")
        .layer("efficiency")
        .definedBy("dev.infermon.llm.efficiency..")
        .layer("report")
        .definedBy("dev.infermon.llm.report..")
        .whereLayer("report")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("efficiency")
        .mayOnlyBeAccessedByLayers("report")
        .whereLayer("diagnosis")
        .mayOnlyBeAccessedByLayers("report")
        .whereLayer("export")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("slo")
        .mayOnlyBeAccessedByLayers("export", "report")
        .whereLayer("dashboard")
        .mayOnlyBeAccessedByLayers("diagnosis", "export", "efficiency", "report")
        .whereLayer("inventory")
        .mayOnlyBeAccessedByLayers("dashboard", "diagnosis", "export", "efficiency", "report")
        .whereLayer("catalog")
        .mayOnlyBeAccessedByLayers(
            "inventory", "dashboard", "diagnosis", "slo", "export", "efficiency", "report")
        .whereLayer("signals")
        .mayOnlyBeAccessedByLayers(
            "catalog",
            "inventory",
            "dashboard",
            "diagnosis",
            "slo",
            "export",
            "efficiency",
            "report")
        .whereLayer("root")
        .mayOnlyBeAccessedByLayers(
            "signals",
            "catalog",
            "inventory",
            "dashboard",
            "diagnosis",
            "slo",
            "export",
            "efficiency",
            "report")
        .check(classes);
  }

  /** The classes of llm and lint that are data rather than services or values, by name. */
  private static final Set<String> DATA =
      Set.of(
          "dev.infermon.llm.catalog.Catalog",
          "dev.infermon.llm.catalog.EngineCatalog",
          "dev.infermon.llm.dashboard.Dashboards",
          "dev.infermon.llm.dashboard.DashboardLayout");

  /** Functions from a value a service returns to text or a JSON-ready tree. */
  private static final Set<String> RENDERERS =
      Set.of(
          "dev.infermon.llm.diagnosis.DiagnosisJson",
          "dev.infermon.llm.efficiency.EfficiencyJson",
          "dev.infermon.llm.diagnosis.IncidentJson",
          "dev.infermon.llm.capacity.CapacityJson",
          "dev.infermon.llm.report.ReportJson",
          "dev.infermon.llm.report.ReportText",
          "dev.infermon.lint.report.TextReport",
          "dev.infermon.lint.report.JsonReport",
          "dev.infermon.lint.report.SarifReport");

  private static boolean isService(JavaClass c) {
    return c.isTopLevelClass() && c.getSimpleName().endsWith("Service");
  }

  /**
   * What {@code web} and {@code server} may use of the LLM layer (the llm and lint modules): its
   * front door. Precisely, a class of {@code dev.infermon.llm..} or {@code dev.infermon.lint..}
   * that is
   *
   * <ul>
   *   <li>a service: a top-level class whose name ends in {@code Service} ({@code
   *       InventoryService}, {@code DashboardService}, {@code DiagnosisService}, {@code
   *       SloService}, {@code ExportService}, {@code LintService}), or a type nested in one ({@code
   *       LintService.Checker});
   *   <li>a value the services take or return: a record or an enum, top-level or nested ({@code
   *       DashboardRequest}, {@code PanelResult.SeriesData}, {@code Diagnosis}, {@code
   *       SloStatus.State}, {@code LintResult}), or an exception (the named errors, {@code
   *       BadParameterException});
   *   <li>data: the catalog's immutable values that are not records ({@code Catalog}, {@code
   *       EngineCatalog}) and the panel specs ({@code Dashboards}, the {@code DashboardLayout} of
   *       levels, sections and panels it holds);
   *   <li>a renderer of a value: {@code DiagnosisJson}, {@code IncidentJson}, and lint's {@code
   *       TextReport}, {@code JsonReport}, {@code SarifReport}.
   * </ul>
   *
   * Everything else is the layer's machinery ({@code Diagnoser}, {@code LintRun}, {@code
   * Reference}, {@code StoredInventory}, {@code LiveScrape}, {@code CatalogLoader}, {@code
   * PromqlCompiler}, {@code AlertPack}, {@code SloRules}, {@code SloStatus} ...) and is reached
   * only through a service, so that defaults and formulas live in one place.
   */
  private static final DescribedPredicate<JavaClass> FRONT_DOOR =
      DescribedPredicate.describe(
          "the LLM layer's front door (services, their values, data, renderers)",
          c ->
              isService(c)
                  || c.getEnclosingClass().map(ArchitectureTest::isService).orElse(false)
                  || c.isRecord()
                  || c.isEnum()
                  || c.isAssignableTo(Throwable.class)
                  || DATA.contains(c.getName())
                  || RENDERERS.contains(c.getName()));

  private static final DescribedPredicate<JavaClass> LLM_MACHINERY =
      DescribedPredicate.describe(
          "classes of the LLM layer outside its front door",
          c ->
              (inModule(c, "dev.infermon.llm") || inModule(c, "dev.infermon.lint"))
                  && !FRONT_DOOR.test(outermost(c)));

  private static boolean inModule(JavaClass c, String root) {
    return c.getPackageName().equals(root) || c.getPackageName().startsWith(root + ".");
  }

  /** Anonymous and local classes belong to the class they are written in. */
  private static JavaClass outermost(JavaClass c) {
    Optional<JavaClass> enclosing = c.getEnclosingClass();
    return c.isAnonymousClass() || c.isLocalClass()
        ? enclosing.map(ArchitectureTest::outermost).orElse(c)
        : c;
  }

  /** {@code web} and {@code server} reach the LLM layer only through its front door. */
  @Test
  void webAndServerReachTheLlmLayerOnlyThroughItsServices() {
    noClasses()
        .that()
        .resideInAnyPackage("dev.infermon.web..", "dev.infermon.server..")
        .should()
        .dependOnClassesThat(LLM_MACHINERY)
        .check(classes);
  }

  @Test
  void modelHasNoDependencies() {
    noClasses()
        .that()
        .resideInAPackage("dev.infermon.model..")
        .should()
        .dependOnClassesThat()
        .resideOutsideOfPackages("dev.infermon.model..", "java..")
        .check(classes);
  }
}
