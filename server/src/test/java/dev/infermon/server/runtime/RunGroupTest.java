package dev.infermon.server.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.infermon.config.Config;
import dev.infermon.config.ConfigLoader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The run group as a table: components that record every call in one log and fail where a row says,
 * what the group does with them, the calls in order, and the error. {@code A} is the running
 * configuration and {@code B} the reloaded one.
 */
class RunGroupTest {
  private static final Config A = config("global: {scrape_interval: 30s}");
  private static final Config B = config("global: {scrape_interval: 10s}");

  private static Config config(String yaml) {
    try {
      return ConfigLoader.create().parseResult(yaml, "<test>").config();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** What a row does with the group. */
  enum Action {
    START_THEN_STOP,
    START,
    RELOAD
  }

  /**
   * @param failing per component, where it fails: {@code start}, {@code prepare} (it cannot take
   *     B), {@code refuse} (a setting that cannot change) or {@code apply} (its change to B throws)
   */
  record Row(String name, Action action, List<String> failing, List<String> calls, String error) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Row> rows() {
    return Stream.of(
        new Row(
            "started in order, stopped in reverse",
            Action.START_THEN_STOP,
            List.of("", "", ""),
            List.of("start a", "start b", "start c", "stop c", "stop b", "stop a"),
            null),
        new Row(
            "a start failure half-way stops the started ones in reverse",
            Action.START,
            List.of("", "", "start", ""),
            List.of("start a", "start b", "start c", "stop b", "stop a"),
            "c cannot start"),
        new Row(
            "a reload prepares every component, then applies in order",
            Action.RELOAD,
            List.of("", "", ""),
            List.of(
                "prepare a A>B",
                "prepare b A>B",
                "prepare c A>B",
                "apply a A>B",
                "apply b A>B",
                "apply c A>B"),
            null),
        new Row(
            "a component that cannot take it is named, and nothing is applied",
            Action.RELOAD,
            List.of("", "prepare", ""),
            List.of("prepare a A>B", "prepare b A>B", "abort a A>B"),
            "b: b cannot take it"),
        new Row(
            "refusals are collected from every component, and nothing is applied",
            Action.RELOAD,
            List.of("refuse", "", "refuse"),
            List.of("prepare a A>B", "prepare b A>B", "prepare c A>B", "abort b A>B"),
            "a: x.a cannot change while infermon runs (test); restart to apply it; "
                + "c: x.c cannot change while infermon runs (test); restart to apply it"),
        new Row(
            "a change that fails is rolled back where it was applied, last first",
            Action.RELOAD,
            List.of("", "apply", ""),
            List.of(
                "prepare a A>B",
                "prepare b A>B",
                "prepare c A>B",
                "apply a A>B",
                "apply b A>B",
                "abort c A>B",
                "prepare b B>A",
                "apply b B>A",
                "prepare a B>A",
                "apply a B>A"),
            "b: b failed half-way"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void runGroup(Row row) throws Exception {
    List<String> calls = new ArrayList<>();
    List<Component> components = new ArrayList<>();
    for (int i = 0; i < row.failing().size(); i++) {
      components.add(new Recording(String.valueOf((char) ('a' + i)), row.failing().get(i), calls));
    }
    RunGroup group = new RunGroup(components);
    switch (row.action()) {
      case START_THEN_STOP -> {
        group.start(A);
        group.stop();
        group.stop(); // idempotent
      }
      case START -> assertThatThrownBy(() -> group.start(A)).hasMessage(row.error());
      case RELOAD -> {
        group.start(A);
        calls.clear();
        if (row.error() == null) {
          assertThat(group.reload(A, B)).contains("a=").contains("c=");
        } else {
          assertThatThrownBy(() -> group.reload(A, B))
              .isInstanceOf(ReloadException.class)
              .hasMessage(row.error());
        }
      }
    }
    assertThat(calls).containsExactlyElementsOf(row.calls());
  }

  /** Records its calls as {@code "<call> <name> [from>to]"}; fails as its row says. */
  private static final class Recording implements Component {
    private final String name;
    private final String failing;
    private final List<String> calls;

    Recording(String name, String failing, List<String> calls) {
      this.name = name;
      this.failing = failing;
      this.calls = calls;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public void start(Config cfg) throws IOException {
      calls.add("start " + name);
      if (failing.equals("start")) {
        throw new IOException(name + " cannot start");
      }
    }

    @Override
    public void stop() {
      calls.add("stop " + name);
    }

    @Override
    public Change prepare(Config current, Config next) throws Refused {
      String move = (current == A ? "A" : "B") + ">" + (next == A ? "A" : "B");
      calls.add("prepare " + name + " " + move);
      boolean forward = next == B;
      if (forward && failing.equals("refuse")) {
        throw new Refused("x." + name, "test");
      }
      if (forward && failing.equals("prepare")) {
        throw new IllegalStateException(name + " cannot take it");
      }
      return new Change() {
        @Override
        public void apply() {
          calls.add("apply " + name + " " + move);
          if (forward && failing.equals("apply")) {
            throw new IllegalStateException(name + " failed half-way");
          }
        }

        @Override
        public void abort() {
          calls.add("abort " + name + " " + move);
        }
      };
    }
  }
}
