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
 * server): unit formatting, axis ticks, PromQL error positions, completion, histogram buckets to
 * heatmap cells, the query step. Each row calls one exported function with JSON arguments.
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
          panels.js | normalize | [{"queries": [{"legend": "{{pod}}", "promql": "x", "series": [{"labels": {"pod": "a"}, "start": 1000, "step": 1000, "values": [1.5, null, "NaN", "+Inf", 2]}]}], "status": "OK"}, [1, 2, 3, 4, 5, 6], 1, 1] | {"spec":null,"queries":[{"legend":"{{pod}}","expr":"x","series":[{"labels":{"pod":"a"},"label":"a","values":[1.5,null,null,null,2,null]}],"warnings":[]}],"status":"OK","reasons":[]}
          panels.js | normalize | [{"queries": [{"legend": "", "promql": "x", "series": [{"labels": {"pod": "a"}, "timestamps": [2000, 4000], "values": ["3", "4"]}]}]}, [1, 2, 3, 4], 1, 1] | {"spec":null,"queries":[{"legend":"","expr":"x","series":[{"labels":{"pod":"a"},"label":"{pod=\\"a\\"}","values":[null,3,null,4]}],"warnings":[]}],"status":"","reasons":[]}
          panels.js | normalize | [{"queries": [{"legend": "{{pod}}", "promql": "x", "series": [{"labels": {"pod": "late"}, "start": 3000, "step": 1000, "values": [7, 8]}, {"labels": {"pod": "early"}, "start": 0, "step": 1000, "values": [5, 6, 7]}, {"labels": {"pod": "coarse"}, "start": 1000, "step": 2000, "values": [1, 2]}]}]}, [1, 2, 3, 4], 1, 1] | {"spec":null,"queries":[{"legend":"{{pod}}","expr":"x","series":[{"labels":{"pod":"late"},"label":"late","values":[null,null,7,8]},{"labels":{"pod":"early"},"label":"early","values":[6,7,null,null]},{"labels":{"pod":"coarse"},"label":"coarse","values":[1,null,2,null]}],"warnings":[]}],"status":"","reasons":[]}
          heatmap.js | bucketCounts | [[1, 2], [{"le": "+Inf", "values": [10, 12]}, {"le": "100", "values": [7, 12]}, {"le": "10", "values": [2, 5]}]] | {"bounds":[10,100,null],"counts":[[2,5],[5,7],[3,0]],"max":7}
          """)
  void pureFunctions(String module, String fn, String args, String expected) {
    assertThat(call(module, fn, args)).isEqualTo(expected);
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
