package dev.infermon.llm.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * panels.yaml is read strictly: each row changes one thing in a valid layout and names the error,
 * which says the file, the entry and the field.
 */
class PanelsLoaderTest {
  private static final String VALID =
      String.join(
          "\n",
          "levels:",
          "  - {id: model, title: Model}",
          "  - {id: all, title: All}",
          "sections:",
          "  - {id: model, title: Model, level: model}",
          "  - {id: more, title: More, level: model, wide: true}",
          "panels:",
          "  - id: model.qps",
          "    section: model",
          "    title: Requests",
          "    group: model",
          "    unit: reqps",
          "    queries:",
          "      - {legend: '{{model_name}}', rate: requests_finished}",
          "  - id: model.ttft",
          "    section: more",
          "    title: TTFT",
          "    group: pod",
          "    unit: s",
          "    kind: heatmap",
          "    rank: low",
          "    match: {role: decode}",
          "    queries:",
          "      - {legend: q, quantile: {signal: ttft, fixed: 0.95}}",
          "      - {legend: r, ratio: {numerator: {rate: prefix_cache_hits}, denominator: {per_gpu:"
              + " {rate: prefix_cache_queries}}}}",
          "    description: help",
          "");

  private static DashboardLayout load(String yaml) {
    return PanelsLoader.load(
        "panels.yaml", new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aValidLayoutReadsEveryField() {
    DashboardLayout l = load(VALID);
    assertThat(l.levels())
        .containsExactly(new LevelTab("model", "Model"), new LevelTab("all", "All"));
    assertThat(l.sections())
        .containsExactly(
            new Section("model", "Model", "model", false),
            new Section("more", "More", "model", true));
    Panel p = l.panel("model.ttft");
    assertThat(p.section()).isEqualTo("More");
    assertThat(p.level()).isEqualTo(Level.POD);
    assertThat(p.kind()).isEqualTo(Panel.Kind.HEATMAP);
    assertThat(p.rank()).isEqualTo(Panel.Rank.LOW);
    assertThat(l.panel("model.qps").rank()).as("the default").isEqualTo(Panel.Rank.HIGH);
    assertThat(p.match()).containsEntry("role", "decode");
    assertThat(p.description()).isEqualTo("help");
    assertThat(p.queries())
        .extracting(Query::measure)
        .containsExactly(
            new Measure.Quantile(dev.infermon.llm.signals.Signal.TTFT, 0.95),
            new Measure.Ratio(
                new Measure.Rate(dev.infermon.llm.signals.Signal.PREFIX_CACHE_HITS),
                new Measure.PerGpu(
                    new Measure.Rate(dev.infermon.llm.signals.Signal.PREFIX_CACHE_QUERIES))));
    assertThat(l.panel("model.qps").kind()).isEqualTo(Panel.Kind.TIMESERIES);
    assertThat(l.panel("model.qps").description()).isEmpty();
    assertThat(l.levelOf(p)).isEqualTo("model");
  }

  static Stream<Arguments> bad() {
    return Stream.of(
        row(
            "unknown top-level key",
            "levels:",
            "colors: []\nlevels:",
            "panels.yaml: colors: unknown key (allowed: levels, panels, sections)"),
        row(
            "unknown panel key",
            "    unit: reqps",
            "    unit: reqps\n    colour: red",
            "panels.yaml: panel \"model.qps\": colour: unknown key (allowed: description, group,"
                + " id, kind, match, queries, rank, section, title, unit)"),
        row(
            "unknown rank",
            "    rank: low",
            "    rank: lowest",
            "panels.yaml: panel \"model.ttft\": rank: unknown value \"lowest\" (one of high, low)"),
        row(
            "a rank on a panel not per pod or GPU",
            "    unit: reqps",
            "    unit: reqps\n    rank: high",
            "panels.yaml: panel \"model.qps\": rank: only a per-pod or per-GPU panel is ranked"
                + " (group pod or gpu), got group model"),
        row(
            "unknown signal",
            "rate: requests_finished",
            "rate: requests_finishd",
            "panels.yaml: panel \"model.qps\": queries[0].rate: unknown signal:"
                + " \"requests_finishd\""),
        row(
            "unknown nested signal",
            "{rate: prefix_cache_hits}",
            "{rate: prefix_hits}",
            "panels.yaml: panel \"model.ttft\": queries[1].ratio.numerator.rate: unknown signal:"
                + " \"prefix_hits\""),
        row(
            "decode_per_token with arguments",
            "rate: requests_finished",
            "decode_per_token: {signal: decode_time}",
            "panels.yaml: panel \"model.qps\": queries[0].decode_per_token: takes no arguments:"
                + " write decode_per_token: {}"),
        row(
            "duplicate panel id",
            "  - id: model.ttft",
            "  - id: model.qps",
            "panels.yaml: panel \"model.qps\": id: the id is used twice"),
        row(
            "duplicate section id",
            "{id: more, title: More",
            "{id: model, title: More",
            "panels.yaml: section \"model\": id: the id is used twice"),
        row(
            "duplicate level id",
            "{id: all, title: All}",
            "{id: model, title: All}",
            "panels.yaml: level \"model\": id: the id is used twice"),
        row(
            "section that does not exist",
            "    section: more",
            "    section: moer",
            "panels.yaml: panel \"model.ttft\": section: unknown section \"moer\" (one of model,"
                + " more)"),
        row(
            "section in an unknown level",
            "title: More, level: model",
            "title: More, level: gpu",
            "panels.yaml: section \"more\": level: unknown level \"gpu\" (one of model)"),
        row(
            "section in the level of every panel",
            "title: More, level: model",
            "title: More, level: all",
            "panels.yaml: section \"more\": level: unknown level \"all\" (one of model)"),
        row(
            "no level all",
            "  - {id: all, title: All}\n",
            "",
            "panels.yaml: levels: the level \"all\" (every panel) is missing"),
        row(
            "missing field",
            "    unit: reqps\n",
            "",
            "panels.yaml: panel \"model.qps\": unit: is required"),
        row(
            "unknown grouping",
            "    group: pod",
            "    group: node",
            "panels.yaml: panel \"model.ttft\": group: unknown value \"node\" (one of model, pod,"
                + " gpu, role)"),
        row(
            "unknown kind",
            "    kind: heatmap",
            "    kind: pie",
            "panels.yaml: panel \"model.ttft\": kind: unknown value \"pie\" (one of timeseries,"
                + " heatmap)"),
        row(
            "two measures",
            "rate: requests_finished}",
            "rate: requests_finished, gauge: kv_usage}",
            "panels.yaml: panel \"model.qps\": queries[0]: two measures, rate and gauge: one is"
                + " allowed"),
        row(
            "no measure",
            "{legend: '{{model_name}}', rate: requests_finished}",
            "{legend: '{{model_name}}'}",
            "panels.yaml: panel \"model.qps\": queries[0]: no measure (one of gauge, rate, mean,"
                + " quantile, heatmap, gpu, success_rate, decode_per_token, ratio, per_gpu, idle_gpus,"
                + " lora, of_peak, cost_per_million_tokens, router)"),
        row(
            "unknown measure",
            "rate: requests_finished}",
            "sum: requests_finished}",
            "panels.yaml: panel \"model.qps\": queries[0].sum: unknown key (measures: gauge, rate,"
                + " mean, quantile, heatmap, gpu, success_rate, decode_per_token, ratio, per_gpu, idle_gpus,"
                + " lora, of_peak, cost_per_million_tokens, router)"),
        row(
            "idle_gpus with an argument",
            "rate: requests_finished}",
            "idle_gpus: gpu_count}",
            "panels.yaml: panel \"model.qps\": queries[0].idle_gpus: takes no arguments: write"
                + " idle_gpus: {}"),
        row(
            "unknown LoRA view",
            "{legend: '{{model_name}}', rate: requests_finished}",
            "{legend: '{{model_name}}', lora: slots}",
            "panels.yaml: panel \"model.qps\": queries[0].lora: unknown LoRA view \"slots\" (one"
                + " of running, waiting, listed, slots_used, slots_max)"),
        row(
            "a ratio's plus that is not a number",
            "{rate: prefix_cache_hits}, denominator",
            "{rate: prefix_cache_hits}, plus: one, denominator",
            "panels.yaml: panel \"model.ttft\": queries[1].ratio.plus: must be a number, got"
                + " \"one\""),
        row(
            "fixed quantile out of range",
            "fixed: 0.95",
            "fixed: 95",
            "panels.yaml: panel \"model.ttft\": queries[0].quantile.fixed: must be a number"
                + " between 0 and 1, got 95"),
        row(
            "no queries",
            "    queries:\n      - {legend: '{{model_name}}', rate: requests_finished}\n",
            "    queries: []\n",
            "panels.yaml: panel \"model.qps\": queries: a non-empty list of queries is required"),
        row(
            "panels out of their sections' order",
            "    description: help\n",
            "    description: help\n  - id: model.late\n    section: model\n    title: Late\n"
                + "    group: model\n    unit: s\n    queries:\n      - {legend: x, gauge: kv_usage}\n",
            "panels.yaml: panel \"model.late\": section: \"model\" comes after section \"more\""
                + ": panels are listed together, in their sections' order"),
        row(
            "bad id",
            "  - id: model.qps",
            "  - id: Model.QPS",
            "panels.yaml: panels[0]: id: \"Model.QPS\" is not lower case letters, digits, _ and ."));
  }

  private static Arguments row(String name, String from, String to, String message) {
    return Arguments.of(name, from, to, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bad")
  void aBadLayoutIsRefusedNamingFileEntryAndField(
      String name, String from, String to, String message) {
    assertThat(VALID).as("the row changes the valid layout").contains(from);
    String yaml =
        VALID.replaceFirst(
            java.util.regex.Pattern.quote(from), java.util.regex.Matcher.quoteReplacement(to));
    assertThatThrownBy(() -> load(yaml)).isInstanceOf(LayoutException.class).hasMessage(message);
  }

  @Test
  void theBuiltInLayoutLoads() {
    assertThat(PanelsLoader.loadResource().panels()).hasSize(90);
    assertThat(List.of(Dashboards.layout().levels().get(0).id())).containsExactly("model");
  }
}
