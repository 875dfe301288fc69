package dev.infermon.llm.dashboard;

/**
 * A headed row of the dashboard (panels.yaml's {@code sections}). Immutable.
 *
 * @param id stable identifier, what panels name ({@code causal_model})
 * @param title the heading, also each of its panels' {@link Panel#section()}
 * @param level the id of the {@link LevelTab} it is shown in
 * @param wide one chart per row, full width (the causal chain, read down on one time axis)
 */
public record Section(String id, String title, String level, boolean wide) {
  public Section {
    if (id == null || title == null || level == null) {
      throw new IllegalArgumentException("a section needs an id, a title and a level: " + id);
    }
  }
}
