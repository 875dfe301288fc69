package dev.infermon.benchmarks.dashboard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.infermon.llm.catalog.Catalog;
import dev.infermon.llm.dashboard.DashboardService;
import dev.infermon.promql.QueryBackend;
import dev.infermon.tsdb.Tsdb;
import dev.infermon.web.WebOptions;
import dev.infermon.web.WebServer;
import dev.infermon.web.WebServices;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTTP requests the web UI makes for one load of {@code /dashboard?level=all&range=6h&lazy=0}
 * (web module, {@code dashboard.js}, {@code panels.js}, {@code api.js}): the layout, the five
 * filters' label values, the LoRA adapters of the window, every panel of the layout in one request
 * ({@code PARALLEL = 1}; the pod tables' columns are panels of the same request) and the catalog's
 * families (asked once a panel shows a reason). The window is the UI's: the end rounded up to the
 * step ({@code state.js timeWindow}, about 240 points), unless the caller shifts it off the grid.
 */
final class DashboardLoad {
  /** The series a per-pod chart asks for, as the page does ({@code panels.js TOP}). */
  static final int TOP = 20;

  /** The panels the pod and GPU tables read, as the page asks them: one summary request. */
  static final List<String> TABLE_PANELS =
      List.of(
          "pod.ttft",
          "pod.e2e",
          "pod.kv_usage",
          "pod.kv_capacity",
          "pod.scheduler",
          "pod.admission_rejections",
          "pod.tokens",
          "pod.sleep",
          "gpu.utilization",
          "gpu.tensor_active",
          "gpu.sm_active",
          "gpu.memory_used");

  private static final ObjectMapper JSON = new ObjectMapper();
  static final List<String> FILTER_LABELS =
      List.of("namespace", "workload_name", "model_name", "backend", "role");

  /** One request of a load. */
  record Request(String name, String pathAndQuery) {}

  private final HttpClient http = HttpClient.newHttpClient();
  private final String base;

  DashboardLoad(String base) {
    this.base = base;
  }

  /** The UI's step for a window of {@code seconds}: about 240 points, a readable step. */
  static long stepFor(long seconds) {
    long[] steps = {15, 30, 60, 90, 120, 300, 600, 900, 1800, 3600, 7200};
    double raw = seconds / 240.0;
    for (long s : steps) {
      if (s >= raw) {
        return s;
      }
    }
    return (long) Math.ceil(raw / 3600) * 3600;
  }

  /**
   * infermon's HTTP server on a free port of 127.0.0.1 with the dashboard service over {@code
   * backend} (the query stack) and {@code db}, as {@code it-ui}'s {@code HistoryServer} assembles
   * them: what a load is sent to.
   */
  static WebServer serve(Tsdb db, QueryBackend backend) throws IOException {
    DashboardService dashboard = new DashboardService(backend, Catalog.builtIn());
    return WebServer.start(
        WebOptions.defaults("127.0.0.1:0"),
        WebServices.builder()
            .queries(() -> backend)
            .appendable(() -> db)
            .dashboard(() -> dashboard)
            .build());
  }

  /** The UI's window end for a history ending at {@code endMs}: the end rounded up to the step. */
  static double uiEndSeconds(long endMs, long stepSeconds) {
    return Math.ceil(endMs / 1000.0 / stepSeconds) * stepSeconds;
  }

  /** The panel ids of a layout answer, in its order (the level "all"). */
  static List<String> panelIds(byte[] layout) throws IOException {
    JsonNode data = JSON.readTree(layout).path("data").path("panels");
    List<String> ids = new ArrayList<>();
    data.forEach(p -> ids.add(p.path("id").asText()));
    if (ids.isEmpty()) {
      throw new IllegalStateException("the layout lists no panel");
    }
    return ids;
  }

  /** The layout request, the first of every load (the UI lays the panels out from its answer). */
  static Request layout() {
    return new Request("layout", "/api/v1/llm/dashboard/panels");
  }

  /**
   * The requests of one load after the layout, over {@code [endSeconds - rangeSeconds,
   * endSeconds]}.
   */
  static List<Request> requests(List<String> panels, double endSeconds, long rangeSeconds) {
    long step = stepFor(rangeSeconds);
    String start = num(endSeconds - rangeSeconds);
    String end = num(endSeconds);
    List<Request> out = new ArrayList<>();
    for (String l : FILTER_LABELS) {
      out.add(new Request("label " + l, "/api/v1/label/" + l + "/values"));
    }
    out.add(
        new Request("adapters", "/api/v1/llm/dashboard/adapters?start=" + start + "&end=" + end));
    out.add(new Request("panels", panels(panels, start, end, step, "&top=" + TOP)));
    // the pod and GPU tables' own compact request (podtable.js POD_COLUMNS, GPU_COLUMNS)
    out.add(
        new Request("table summaries", panels(TABLE_PANELS, start, end, step, "&summary=true")));
    out.add(new Request("catalog families", "/api/v1/llm/catalog/families"));
    return out;
  }

  /** The dashboard API's URL for {@code panels} over the window, {@code extra} appended. */
  private static String panels(
      List<String> panels, String start, String end, long step, String extra) {
    return "/api/v1/llm/dashboard?panels="
        + URLEncoder.encode(String.join(",", panels), StandardCharsets.UTF_8)
        + "&start="
        + start
        + "&end="
        + end
        + "&step="
        + step
        + "&quantile=0.95"
        + extra;
  }

  private static String num(double seconds) {
    return seconds == Math.rint(seconds)
        ? Long.toString((long) seconds)
        : String.format(java.util.Locale.ROOT, "%.3f", seconds);
  }

  /** Sends one request; returns the body, failing on any status but 200. */
  byte[] send(Request r) throws IOException, InterruptedException {
    HttpResponse<byte[]> res =
        http.send(
            HttpRequest.newBuilder(URI.create(base + r.pathAndQuery()))
                .header("Accept", "application/json")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    if (res.statusCode() != 200) {
      throw new IllegalStateException(
          r.name()
              + ": HTTP "
              + res.statusCode()
              + ": "
              + new String(res.body(), StandardCharsets.UTF_8));
    }
    return res.body();
  }
}
