package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The built-in layout, as panels.yaml declares it, field by field: every panel's id, section,
 * title, grouping, unit, kind, scope, queries (legend and measure) and description, the sections
 * with their levels and the levels in tab order, against {@code dashboard/layout.golden}. The
 * golden was first written while the Java builder panels.yaml replaced still existed, when the
 * loaded panels equalled the builder's record for record; a change to the layout shows here line by
 * line (regenerate with {@code -Dinfermon.golden.regenerate=true}, then read the diff).
 */
class DashboardLayoutTest {
  private static final Path GOLDEN = Path.of("src/test/resources/dashboard/layout.golden");

  @Test
  void theLayoutIsTheGoldenFieldByField() throws IOException {
    String got = render(Dashboards.layout());
    if (Boolean.getBoolean("infermon.golden.regenerate")) {
      Files.writeString(GOLDEN, got);
    }
    assertThat(got).isEqualTo(Files.readString(GOLDEN, StandardCharsets.UTF_8));
  }

  @Test
  void everyPanelsLevelIsItsSectionsAndEveryLevelButAllHasASection() {
    DashboardLayout l = Dashboards.layout();
    List<String> shown = new ArrayList<>();
    for (Panel p : l.panels()) {
      String level = l.levelOf(p);
      assertThat(level).as(p.id()).isNotEqualTo(DashboardLayout.ALL);
      if (!shown.contains(level)) {
        shown.add(level);
      }
    }
    List<String> levels = new ArrayList<>();
    for (LevelTab t : l.levels()) {
      levels.add(t.id());
    }
    shown.add(DashboardLayout.ALL);
    assertThat(shown).isEqualTo(levels);
  }

  static String render(DashboardLayout l) {
    StringBuilder b = new StringBuilder();
    for (LevelTab t : l.levels()) {
      b.append("level ").append(t.id()).append(" | ").append(t.title()).append('\n');
    }
    for (Section s : l.sections()) {
      b.append("section ")
          .append(s.id())
          .append(" | ")
          .append(s.title())
          .append(" | level ")
          .append(s.level())
          .append(s.wide() ? " | wide" : "")
          .append('\n');
    }
    for (Panel p : l.panels()) {
      b.append("panel ")
          .append(p.id())
          .append(" | ")
          .append(p.section())
          .append(" | ")
          .append(p.title())
          .append(" | ")
          .append(p.level())
          .append(" | ")
          .append(p.unit())
          .append(" | ")
          .append(p.kind())
          .append(" | match ")
          .append(p.match())
          .append('\n');
      for (Query q : p.queries()) {
        b.append("  ").append(q.legend()).append(" = ").append(q.measure()).append('\n');
      }
      b.append("  description: ").append(p.description()).append('\n');
    }
    return b.toString();
  }
}
