package dev.infermon.llm.dashboard;

/**
 * One level of the dashboard as the UI shows it, a tab, and as the API selects it ({@code
 * ?level=}): panels.yaml's {@code levels}. {@link DashboardLayout#ALL} is every panel's. Not the
 * {@link Level} a panel groups its series by. Immutable.
 *
 * @param id what {@code ?level=} names ({@code causal})
 * @param title the tab's label
 */
public record LevelTab(String id, String title) {
  public LevelTab {
    if (id == null || title == null) {
      throw new IllegalArgumentException("a level needs an id and a title: " + id);
    }
  }
}
