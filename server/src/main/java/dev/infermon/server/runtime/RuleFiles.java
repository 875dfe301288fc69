package dev.infermon.server.runtime;

import dev.infermon.config.app.LlmConfig;
import dev.infermon.llm.export.ExportService;
import dev.infermon.rules.rulefmt.RuleError;
import dev.infermon.rules.rulefmt.RuleFile;
import dev.infermon.rules.rulefmt.RuleFileException;
import dev.infermon.rules.rulefmt.RuleFileParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The rule files a configuration names: {@code rule_files} globs expanded as Go's {@code
 * filepath.Glob} (a pattern that matches nothing is no error, as in Prometheus; it is logged), each
 * file parsed strictly, then the default LLM alert pack unless {@code llm.alerts.enabled} is false,
 * then the SLO rules when {@code llm.slos} is not empty. Both are the llm module's exports ({@link
 * ExportService}): the pack generated from the engine catalog for every engine it knows (each rule
 * unions the engines, so an absent engine adds nothing), the SLO rules (docs/slo.md) the same file
 * {@code /api/v1/llm/slo} reads the recorded series of. Stateless.
 */
final class RuleFiles {
  private static final Logger log = LoggerFactory.getLogger(RuleFiles.class);

  /** The name the default pack's rules carry as their file ({@code /api/v1/rules}). */
  static final String DEFAULT_PACK_FILE = "<infermon>/default-alerts.yml";

  /** The name the generated SLO rules carry as their file ({@code /api/v1/rules}). */
  static final String SLO_RULES_FILE = "<infermon>/slo-rules.yml";

  private RuleFiles() {}

  /**
   * Every rule file, in pattern order, files of one pattern sorted by name.
   *
   * @throws RuleFileException listing the problems of every file that does not load
   */
  static List<RuleFile> load(List<String> patterns, LlmConfig llm, ExportService exports) {
    List<RuleFile> out = new ArrayList<>();
    List<RuleError> errors = new ArrayList<>();
    for (String pattern : patterns) {
      List<Path> files = glob(pattern);
      if (files.isEmpty()) {
        log.warn("rule_files pattern {} matches no file", pattern);
      }
      for (Path f : files) {
        try {
          out.add(RuleFileParser.load(f));
        } catch (RuleFileException e) {
          errors.addAll(e.errors());
        }
      }
    }
    if (!errors.isEmpty()) {
      throw new RuleFileException(errors);
    }
    if (llm.alerts().enabled()) {
      out.add(RuleFileParser.parse(DEFAULT_PACK_FILE, exports.rules(List.of(), llm.alerts())));
    }
    if (!llm.slos().isEmpty()) {
      out.add(RuleFileParser.parse(SLO_RULES_FILE, exports.sloRules(llm.slos())));
    }
    return out;
  }

  /** The regular files matching {@code pattern}, sorted; {@code *} does not cross directories. */
  static List<Path> glob(String pattern) {
    Path p = Path.of(pattern);
    int fixed = 0;
    while (fixed < p.getNameCount() && !hasMeta(p.getName(fixed).toString())) {
      fixed++;
    }
    if (fixed == p.getNameCount()) {
      return Files.isRegularFile(p) ? List.of(p) : List.of();
    }
    Path base = fixed == 0 ? (p.getRoot() == null ? Path.of("") : p.getRoot()) : root(p, fixed);
    int depth = p.getNameCount() - fixed;
    String glob = p.toString().replace("\\", "\\\\");
    PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + glob);
    Path start = base.toString().isEmpty() ? Path.of(".") : base;
    if (!Files.isDirectory(start)) {
      return List.of();
    }
    TreeSet<Path> found = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(start, depth)) {
      walk.filter(Files::isRegularFile)
          .map(f -> base.toString().isEmpty() ? start.relativize(f) : f)
          .filter(m::matches)
          .forEach(found::add);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list rule files " + pattern, e);
    }
    return List.copyOf(found);
  }

  private static Path root(Path p, int names) {
    Path sub = p.subpath(0, names);
    return p.getRoot() == null ? sub : p.getRoot().resolve(sub);
  }

  private static boolean hasMeta(String s) {
    return s.indexOf('*') >= 0 || s.indexOf('?') >= 0 || s.indexOf('[') >= 0;
  }
}
