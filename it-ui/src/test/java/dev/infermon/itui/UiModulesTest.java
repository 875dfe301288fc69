package dev.infermon.itui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.infermon.web.WebOptions;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The UI's pure functions, run in the browser as the pages run them (ES modules imported from the
 * server): unit formatting, axis ranges and duration ticks, Prometheus's humanize and alert units,
 * PromQL error positions, completion, histogram buckets to heatmap cells, the query step, family
 * links in reasons, the engines page's summaries, sparklines. Each row calls one exported function
 * with JSON arguments.
 */
class UiModulesTest {
  static WebServer server;
  static Browser browser;

  @BeforeAll
  static void start() throws Exception {
    assumeTrue(Browser.available(), "headless Chromium not installed (" + Browser.CHROMIUM + ")");
    server = WebServer.start(WebOptions.defaults("127.0.0.1:0"), WebServices.builder().build());
    browser = Browser.start(800, 600, false);
    browser.driver.get("http://127.0.0.1:" + server.port() + "/diagnosis");
  }

  @AfterAll
  static void stop() {
    if (browser != null) {
      browser.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** Calls {@code module.fn(...args)} in the page and returns the result as JSON text. */
  static String call(String module, String fn, String argsJson) {
    Object r =
        browser.driver.executeAsyncScript(
            "const done = arguments[arguments.length - 1];"
                + "import('/ui/' + arguments[0]).then(m => done(JSON.stringify(m[arguments[1]](...JSON.parse(arguments[2])))),"
                + " e => done('ERROR ' + e));",
            module,
            fn,
            argsJson);
    return String.valueOf(r);
  }

  @ParameterizedTest(name = "{0}.{1}{2} = {3}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          format.js | fmt | [0.0123, "s"]                      | "12.3 ms"
          format.js | fmt | [0.00042, "s"]                     | "420 µs"
          format.js | fmt | [95, "s"]                          | "95 s"
          format.js | fmt | [1500, "s"]                        | "25 min"
          format.js | fmt | [250, "ms"]                        | "250 ms"
          format.js | fmt | [0.953, "percentunit"]             | "95.3 %"
          format.js | fmt | [41.26, "percent"]                 | "41.3 %"
          format.js | fmt | [70500, "mbytes"]                  | "68.8 GiB"
          format.js | fmt | [512, "mbytes"]                    | "512 MiB"
          format.js | fmt | [12345, "tokens/s"]                | "12.35k tok/s"
          format.js | fmt | [0.25, "reqps"]                   | "0.25 req/s"
          format.js | fmt | [null, "s"]                       | "–"
          format.js | fmtTicks | [[0.999, 0.9995, 1], "percentunit"] | ["99.9 %","99.95 %","100 %"]
          format.js | fmtTicks | [[0, 0.5, 1, 1.5], "s"]      | ["0 s","500 ms","1 s","1.5 s"]
          format.js | axisRange | ["percentunit", 1, 1]            | [0,1]
          format.js | axisRange | ["percentunit", 0, 0]            | [0,1]
          format.js | axisRange | ["percentunit", 0.2, 1.3]        | [0,1.3]
          format.js | axisRange | ["percent", 41, 41]              | [0,100]
          format.js | axisRange | ["percent", -3, 41]              | [-3,100]
          format.js | axisRange | ["s", 0.2, 3.7]                  | [0,4]
          format.js | axisRange | ["s", 0, 0]                      | [0,1]
          format.js | axisRange | ["s", 30, 400]                   | [0,480]
          format.js | axisRange | ["ms", 120, 950]                 | [0,1000]
          format.js | axisRange | ["reqps", 1, 1]                  | null
          format.js | durationTicks | [[0, 15, 30, 45, 60], "s"]   | ["0 s","15 s","30 s","45 s","60 s"]
          format.js | durationTicks | [[0, 300, 600, 900], "s"]    | ["0 min","5 min","10 min","15 min"]
          format.js | durationTicks | [[120, 240, 360], "s"]       | ["2 min","4 min","6 min"]
          format.js | durationTicks | [[0, 3600, 7200], "s"]       | ["0 h","1 h","2 h"]
          format.js | durationTicks | [[0, 0.2, 0.4, 0.6], "s"]    | ["0 ms","200 ms","400 ms","600 ms"]
          format.js | durationTicks | [[0, 500, 1000, 1500], "ms"] | ["0 ms","500 ms","1000 ms","1500 ms"]
          format.js | durationTicks | [[0, 5, 10], "ms"]           | ["0 ms","5 ms","10 ms"]
          format.js | durationTicks | [[0.00002, 0.00004], "s"]    | ["20 µs","40 µs"]
          format.js | humanize | [1234]                           | "1.234k"
          format.js | humanize | [12345678]                       | "12.35M"
          format.js | humanize | [42]                             | "42"
          format.js | humanize | [0.0123]                         | "12.3m"
          format.js | humanize | [0]                              | "0"
          format.js | alertUnit | '[{"description": "Users wait {{ $value | humanizeDuration }} (p95)"}]'  | "s"
          format.js | alertUnit | '[{"description": "{{ $value | humanizePercentage }} of the requests"}]' | "percentunit"
          format.js | alertUnit | [{"description": "{{ $value }} requests wait"}]                      | ""
          format.js | fmtAlertValue | ["2.5", "s"]                | "2.5 s"
          format.js | fmtAlertValue | ["0.0712", "percentunit"]   | "7.12 %"
          format.js | fmtAlertValue | ["37", ""]                  | "37"
          format.js | fmtAlertValue | ["12345.6", ""]             | "12.35k"
          alerts.js | unitsByAlert | '[[{"rules": [{"type": "alerting", "name": "A", "annotations": {"description": "wait {{ $value | humanizeDuration }}"}}, {"type": "alerting", "name": "B", "annotations": {}}, {"type": "recording", "name": "C"}]}]]' | {"A":"s"}
          panels.js | linkFamilies | ["vLLM 0.4 – 0.7 does not expose x; vllm:foo is exposed from vLLM 0.8", {"vllm:foo": "vllm:foo"}] | "vLLM 0.4 – 0.7 does not expose x; <a data-nav class=\\"family\\" href=\\"/engines#family-vllm%3Afoo\\">vllm:foo</a> is exposed from vLLM 0.8"
          panels.js | linkFamilies | ["DCGM_FI_PROF_SM_ACTIVE is not exported: it needs x", {"DCGM_FI_PROF_SM_ACTIVE": "DCGM_FI_PROF_SM_ACTIVE"}] | "<a data-nav class=\\"family\\" href=\\"/engines#family-DCGM_FI_PROF_SM_ACTIVE\\">DCGM_FI_PROF_SM_ACTIVE</a> is not exported: it needs x"
          panels.js | linkFamilies | ["ray_vllm:foo <b>", {"ray_vllm:foo": "vllm:foo"}] | "<a data-nav class=\\"family\\" href=\\"/engines#family-vllm%3Afoo\\">ray_vllm:foo</a> &lt;b&gt;"
          panels.js | linkFamilies | ["no family here", {}]             | "no family here"
          panels.js | todoFor | [{"kind": "NOT_EXPOSED", "engine": "vLLM", "version": "0.8"}] | "Run vLLM 0.8 or later to get this panel; until then it does not apply to these pods."
          panels.js | todoFor | [{"kind": "NOT_EXPOSED", "engine": "vllm"}] | "Where the engine never has this metric the panel does not apply to these pods; where the reason says the page is incomplete, check what drops names on the way (relabelling, a proxy, a cut page)."
          panels.js | todoFor | [{"kind": "REMOVED"}]            | "The release these pods run no longer has this metric: the panel does not apply to them."
          panels.js | todoFor | [{"kind": "NO_MATCH"}]           | "The metric moves but the query selects none of its series: clear the model filter, or check the labels relabelling sets."
          engines.js | releaseText | [{"first": "0.8", "last": "0.11"}] | "0.8 – 0.11"
          engines.js | releaseText | [{"first": "0.11", "last": "0.11"}] | "0.11"
          engines.js | releaseText | [null]                           | "release unknown"
          engines.js | badgeText | [{"engine": "vllm", "versions": {"first": "0.8", "last": "0.11"}}] | "vllm 0.8 – 0.11"
          engines.js | badgeText | [{"engine": "sglang", "versions": null}] | "sglang"
          engines.js | badgeText | [{"engine": "unknown", "versions": null}] | ""
          engines.js | engineSummary | [[{"engine": "vllm", "up": true, "prefix": "vllm:", "versions": {"first": "0.8", "last": "0.11"}, "features": ["lora"]}, {"engine": "vllm", "up": false, "prefix": "ray_vllm:", "versions": {"first": "0.8", "last": "0.11"}, "features": []}, {"engine": "dcgm", "up": true, "prefix": "", "versions": null, "features": []}]] | [{"engine":"dcgm","targets":1,"up":1,"releases":["release unknown"],"prefixes":[],"features":[]},{"engine":"vllm","targets":2,"up":1,"releases":["0.8 – 0.11"],"prefixes":["ray_vllm:","vllm:"],"features":["lora"]}]
          format.js | legend | ["{{pod}} q", {"pod": "vllm-0", "le": "1"}] | "vllm-0 q"
          format.js | legend | ["", {"__name__": "up", "job": "a"}]      | "up{job=\\"a\\"}"
          api.js | parsePosition | ["invalid parameter \\"query\\": 1:62: parse error: unexpected <op:*>"] | {"line":1,"column":62,"message":"parse error: unexpected <op:*>"}
          api.js | parsePosition | ["2:5: parse error: unclosed left parenthesis"] | {"line":2,"column":5,"message":"parse error: unclosed left parenthesis"}
          api.js | parsePosition | ["query timed out in query execution"] | null
          explore.js | wordAt | ["rate(vllm:num_req", 17]         | {"word":"vllm:num_req","start":5}
          explore.js | wordAt | ["up{job=\\"vll", 11]             | null
          explore.js | wordAt | ["sum(x) by (mod", 14]            | {"word":"mod","start":11}
          state.js | stepFor | [900]                            | 15
          state.js | stepFor | [21600]                          | 90
          state.js | stepFor | [604800]                         | 3600
          state.js | top     | [null, 20]                       | 20
          state.js | top     | ["3", 20]                        | 3
          state.js | top     | ["all", 20]                      | null
          state.js | top     | ["0", 20]                        | 20
          state.js | top     | ["-4", 20]                       | 20
          panels.js | normalize | [{"queries": [{"legend": "{{pod}}", "promql": "x", "total": 9, "series": [{"labels": {"pod": "a"}, "last": 0.5, "spark": [1, null, "NaN", 0.5]}]}]}, [1, 2], 1, 1] | {"spec":null,"queries":[{"legend":"{{pod}}","expr":"x","series":[{"labels":{"pod":"a"},"label":"a","values":[1,null,null,0.5],"last":0.5}],"total":9,"warnings":[]}],"status":"","reasons":[]}
          podtable.js | tableRows | [[{"panel": "p", "pick": ""}], {"p": {"queries": [{"legend": "{{pod}}", "series": [{"labels": {"namespace": "n", "pod": "a"}, "values": [3, null], "last": 7}, {"labels": {"namespace": "n", "pod": "b"}, "values": [1, 2]}]}]}}, false] | [{"key":"n/a","name":"a","ns":"n","cells":[{"values":[3,null],"last":7}]},{"key":"n/b","name":"b","ns":"n","cells":[{"values":[1,2],"last":2}]}]
          panels.js | normalize | [{"queries": [{"legend": "{{pod}}", "promql": "x", "series": [{"labels": {"pod": "a"}, "start": 1000, "step": 1000, "values": [1.5, null, "NaN", "+Inf", 2]}]}], "status": "OK"}, [1, 2, 3, 4, 5, 6], 1, 1] | {"spec":null,"queries":[{"legend":"{{pod}}","expr":"x","series":[{"labels":{"pod":"a"},"label":"a","values":[1.5,null,null,null,2,null]}],"total":1,"warnings":[]}],"status":"OK","reasons":[]}
          panels.js | normalize | [{"queries": [{"legend": "", "promql": "x", "series": [{"labels": {"pod": "a"}, "timestamps": [2000, 4000], "values": ["3", "4"]}]}]}, [1, 2, 3, 4], 1, 1] | {"spec":null,"queries":[{"legend":"","expr":"x","series":[{"labels":{"pod":"a"},"label":"{pod=\\"a\\"}","values":[null,3,null,4]}],"total":1,"warnings":[]}],"status":"","reasons":[]}
          panels.js | normalize | [{"queries": [{"legend": "{{pod}}", "promql": "x", "series": [{"labels": {"pod": "late"}, "start": 3000, "step": 1000, "values": [7, 8]}, {"labels": {"pod": "early"}, "start": 0, "step": 1000, "values": [5, 6, 7]}, {"labels": {"pod": "coarse"}, "start": 1000, "step": 2000, "values": [1, 2]}]}]}, [1, 2, 3, 4], 1, 1] | {"spec":null,"queries":[{"legend":"{{pod}}","expr":"x","series":[{"labels":{"pod":"late"},"label":"late","values":[null,null,7,8]},{"labels":{"pod":"early"},"label":"early","values":[6,7,null,null]},{"labels":{"pod":"coarse"},"label":"coarse","values":[1,null,2,null]}],"total":3,"warnings":[]}],"status":"","reasons":[]}
          heatmap.js | bucketCounts | [[1, 2], [{"le": "+Inf", "values": [10, 12]}, {"le": "100", "values": [7, 12]}, {"le": "10", "values": [2, 5]}]] | {"bounds":[10,100,null],"counts":[[2,5],[5,7],[3,0]],"max":7}
          headroom.js | headroomRow | [{"pod": "p", "namespace": "ns", "estimated": true, "currentRate": 0.25, "ceilingRate": 1.5, "headroom": 6, "secondsToCeiling": 5400}, true] | {"name":"p","ns":"ns","cells":["0.25 req/s","1.5 req/s","6×","1.5 h"]}
          headroom.js | headroomRow | [{"model": "m", "namespace": "ns", "estimated": true, "currentRate": 0.25, "ceilingRate": 0.5, "headroom": 2, "secondsToCeiling": 1800}, false] | {"name":"m","ns":"ns","cells":["0.25 req/s","0.5 req/s","2×","30 min"]}
          headroom.js | headroomRow | [{"pod": "p", "namespace": "ns", "estimated": true, "currentRate": 0.25, "ceilingRate": 0.5, "headroom": 2, "secondsToCeiling": null, "timeReason": "the request rate is not rising over the look-back"}, true] | {"name":"p","ns":"ns","cells":["0.25 req/s","0.5 req/s","2×","the request rate is not rising over the look-back"]}
          headroom.js | headroomRow | [{"model": "m", "namespace": "ns", "estimated": false, "reason": "too little history: 3 points, at least 12 needed"}, false] | {"name":"m","ns":"ns","reason":"too little history: 3 points, at least 12 needed"}
          """)
  void pureFunctions(String module, String fn, String args, String expected) {
    assertThat(call(module, fn, args)).isEqualTo(expected);
  }

  /** The y coordinates of a sparkline's path, as the pod table draws it. */
  static List<String> sparkYs(String valuesJson) {
    String svg = call("chart.js", "sparkline", "[" + valuesJson + "]");
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("[ML][0-9.]+ ([0-9.]+)").matcher(svg);
    List<String> ys = new java.util.ArrayList<>();
    while (m.find()) {
      ys.add(m.group(1));
    }
    return ys;
  }

  @org.junit.jupiter.api.Test
  void aSparklineOfFloatNoiseIsFlatAndOfARealChangeIsNot() {
    // KV usage 0.5 with the last-digit wiggles of float sums: one height for every point
    assertThat(sparkYs("[0.5, 0.500000000001, 0.499999999999, 0.5, 0.5000000000002]"))
        .hasSize(5)
        .containsOnly("10.0");
    assertThat(sparkYs("[1, 1, 1]")).containsOnly("10.0");
    // a change of a tenth spans the whole height, lowest value at the bottom
    assertThat(sparkYs("[0.4, 0.5, 0.45]")).containsExactly("19.0", "1.0", "10.0");
  }

  @ParameterizedTest(name = "{0} theme: text colours meet WCAG AA on both backgrounds")
  @CsvSource({"light", "dark"})
  void contrastMeetsWcagAa(String theme) {
    browser.js("document.documentElement.dataset.theme = arguments[0]", theme);
    for (String bg : List.of("--bg", "--panel")) {
      for (String fg : List.of("--text", "--muted", "--accent", "--bad", "--ok", "--warn")) {
        String[] c =
            String.valueOf(
                    browser.js(
                        "const s = getComputedStyle(document.documentElement);"
                            + "return s.getPropertyValue(arguments[0]).trim() + ' '"
                            + " + s.getPropertyValue(arguments[1]).trim()",
                        fg,
                        bg))
                .split(" ");
        assertThat(contrast(c[0], c[1]))
            .as("%s on %s (%s on %s)", fg, bg, c[0], c[1])
            .isGreaterThanOrEqualTo(4.5);
      }
    }
  }

  /** WCAG 2 contrast ratio of two #rrggbb colours. */
  static double contrast(String a, String b) {
    double la = luminance(a);
    double lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }

  static double luminance(String hex) {
    double[] w = {0.2126, 0.7152, 0.0722};
    double l = 0;
    for (int i = 0; i < 3; i++) {
      double c = Integer.parseInt(hex.substring(1 + 2 * i, 3 + 2 * i), 16) / 255.0;
      l += w[i] * (c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4));
    }
    return l;
  }

  @ParameterizedTest(name = "suggest({1}) starts with {2}")
  @CsvSource({
    "'vllm:num_requests_running,vllm:num_requests_waiting,sglang:num_running_reqs', running, vllm:num_requests_running",
    "'vllm:num_requests_running,vllm:num_requests_waiting,sglang:num_running_reqs', sglang, sglang:num_running_reqs",
    "'DCGM_FI_DEV_FB_USED,DCGM_FI_DEV_GPU_UTIL', dcgm_fi_dev_g, DCGM_FI_DEV_GPU_UTIL",
  })
  void completionPrefersPrefixesAndIgnoresCase(String names, String word, String first) {
    StringBuilder json = new StringBuilder("[[");
    List<String> list = List.of(names.split(","));
    for (int i = 0; i < list.size(); i++) {
      json.append(i > 0 ? "," : "").append("{\"name\":\"").append(list.get(i)).append("\"}");
    }
    json.append("],\"").append(word).append("\"]");
    assertThat(call("explore.js", "suggest", json.toString()))
        .startsWith("[{\"name\":\"" + first + "\"");
  }
}
