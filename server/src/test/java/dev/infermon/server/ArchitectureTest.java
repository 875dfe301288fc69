package dev.infermon.server;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
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
        .mayOnlyBeAccessedByLayers("scrape", "llm", "lint", "server")
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

  /** The LLM layer speaks PromQL only, so its dashboards also run against a remote Prometheus. */
  @Test
  void llmUsesTheQueryBackendNeverTheEngineOrStorage() {
    noClasses()
        .that()
        .resideInAPackage("dev.infermon.llm..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "dev.infermon.promql.engine..", "dev.infermon.storage..", "dev.infermon.tsdb..")
        .check(classes);
  }

  /**
   * Lint, diagnosis and SLOs speak PromQL too, and of the rules module use only rule-file loading
   * (rulefmt): never evaluation, the engine or storage.
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
            "dev.infermon.storage..",
            "dev.infermon.tsdb..",
            "dev.infermon.rules",
            "dev.infermon.rules.unittest..",
            "dev.infermon.rules.defaults..")
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
