package dev.infermon.llm.dashboard;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The dashboard as data: its levels (tabs), sections and panels, each list in display order, as
 * panels.yaml declares them ({@link PanelsLoader}). Every section is in a level other than {@link
 * #ALL}, every panel in a section, and the panels of a section are listed together, in the
 * sections' order. Immutable.
 */
public final class DashboardLayout {
  /** The level of every panel; it holds no section of its own. */
  public static final String ALL = "all";

  private final List<LevelTab> levels;
  private final List<Section> sections;
  private final List<Panel> panels;
  private final Map<String, Panel> byId = new LinkedHashMap<>();
  private final Map<String, Section> byTitle = new LinkedHashMap<>();

  /** Validated by the loader; here only copied. */
  DashboardLayout(List<LevelTab> levels, List<Section> sections, List<Panel> panels) {
    this.levels = List.copyOf(levels);
    this.sections = List.copyOf(sections);
    this.panels = List.copyOf(panels);
    for (Section s : sections) {
      byTitle.put(s.title(), s);
    }
    for (Panel p : panels) {
      byId.put(p.id(), p);
    }
  }

  /** The levels, in tab order. */
  public List<LevelTab> levels() {
    return levels;
  }

  /** The sections, in display order. */
  public List<Section> sections() {
    return sections;
  }

  /** Every panel, in display order. */
  public List<Panel> panels() {
    return panels;
  }

  /**
   * The panel with {@code id}.
   *
   * @throws IllegalArgumentException naming the id when there is none
   */
  public Panel panel(String id) {
    Panel p = byId.get(id);
    if (p == null) {
      throw new IllegalArgumentException("unknown panel: \"" + id + "\"");
    }
    return p;
  }

  /** The section a panel of this layout is in. */
  public Section section(Panel p) {
    Section s = byTitle.get(p.section());
    if (s == null) {
      throw new IllegalArgumentException("panel " + p.id() + " is not in this layout");
    }
    return s;
  }

  /** The id of the level a panel of this layout is shown in (its section's). */
  public String levelOf(Panel p) {
    return section(p).level();
  }
}
