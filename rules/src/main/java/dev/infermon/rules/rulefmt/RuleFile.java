package dev.infermon.rules.rulefmt;

import java.util.List;

/** The groups of one rule file, validated. */
public record RuleFile(String path, List<GroupSpec> groups) {
  public RuleFile {
    groups = List.copyOf(groups);
  }

  /** The number of rules in all groups. */
  public int ruleCount() {
    int n = 0;
    for (GroupSpec g : groups) {
      n += g.rules().size();
    }
    return n;
  }
}
