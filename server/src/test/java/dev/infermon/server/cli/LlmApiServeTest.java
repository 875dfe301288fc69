package dev.infermon.server.cli;

import static dev.infermon.server.cli.ServeTestSupport.get;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.CodedOutputStream;
import dev.infermon.server.runtime.Infermon;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * The LLM dashboard API and the default alert pack through {@code infermon serve}: a vLLM pod's
 * samples arrive by remote write (with the target labels a scrape would attach), the dashboard
 * shows them on the pod level, the inventory recognises the engine, and {@code /api/v1/rules} lists
 * the catalog-generated pack.
 */
class LlmApiServeTest {
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void theDashboardInventoryAndDefaultPackAreServed() throws Exception {
    Infermon m = ServeTestSupport.remoteWriteReceiver(dir, "15s");
    try {
      long now = System.currentTimeMillis() / 15_000 * 15_000;
      Map<String, String> target =
          Map.of(
              "job", "vllm",
              "instance", "10.0.0.7:8000",
              "namespace", "prod",
              "pod", "llama-0",
              "workload_name", "llama",
              "backend", "vllm");
      List<byte[]> series = new ArrayList<>();
      for (int i = 0; i <= 4; i++) {
        long t = now - (4 - i) * 15_000L;
        series.add(timeSeries(labels("up", target, Map.of()), t, 1));
        series.add(
            timeSeries(
                labels(
                    "vllm:num_requests_running",
                    target,
                    Map.of("model_name", "llama", "engine", "0")),
                t,
                10 + i));
        series.add(
            timeSeries(
                labels(
                    "vllm:num_requests_waiting",
                    target,
                    Map.of("model_name", "llama", "engine", "0")),
                t,
                3));
      }
      HttpResponse<String> w = ServeTestSupport.remoteWrite(m, writeRequest(series));
      assertThat(w.statusCode()).as(w.body()).isEqualTo(204);

      String range = "&start=" + (now - 60_000) / 1000 + "&end=" + now / 1000 + "&step=15";
      HttpResponse<String> d =
          get(m, "/api/v1/llm/dashboard/panel?id=pod.scheduler&namespace=prod" + range);
      assertThat(d.statusCode()).as(d.body()).isEqualTo(200);
      JsonNode panel = JSON.readTree(d.body()).path("data");
      assertThat(panel.path("panel").path("id").asText()).isEqualTo("pod.scheduler");
      assertThat(panel.path("status").asText()).isIn("OK", "PARTIAL");
      Map<String, String> lastByLegend = new TreeMap<>();
      for (JsonNode q : panel.path("queries")) {
        for (JsonNode s : q.path("series")) {
          assertThat(s.path("labels").path("pod").asText()).isEqualTo("llama-0");
          JsonNode values = s.path("values");
          lastByLegend.put(q.path("legend").asText(), values.get(values.size() - 1).asText());
        }
      }
      assertThat(lastByLegend)
          .containsEntry("{{pod}} running", "14")
          .containsEntry("{{pod}} waiting", "3");

      JsonNode inv = JSON.readTree(get(m, "/api/v1/llm/inventory").body()).path("data");
      assertThat(inv.path("engines").toString()).isEqualTo("[\"vllm\"]");
      assertThat(inv.path("targets").get(0).path("labels").path("pod").asText())
          .isEqualTo("llama-0");

      HttpResponse<String> bad = get(m, "/api/v1/llm/dashboard?quantile=1.5");
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(JSON.readTree(bad.body()).path("errorType").asText()).isEqualTo("bad_data");

      JsonNode groups = JSON.readTree(get(m, "/api/v1/rules").body()).path("data").path("groups");
      List<String> alerts = new ArrayList<>();
      for (JsonNode g : groups) {
        if (g.path("name").asText().equals("infermon-llm")) {
          g.path("rules").forEach(r -> alerts.add(r.path("name").asText()));
        }
      }
      assertThat(alerts)
          .containsExactly(
              "LLMTimeToFirstTokenHigh",
              "LLMRequestsQueuedWhilePreempting",
              "LLMRequestsWaitingForSlot",
              "LLMRequestFailuresHigh",
              "LLMRouterQueueGrowing");
    } finally {
      m.close();
    }
  }

  static Map<String, String> labels(
      String name, Map<String, String> target, Map<String, String> own) {
    Map<String, String> l = new TreeMap<>(target);
    l.putAll(own);
    l.put("__name__", name);
    return l;
  }

  /** One remote-write 1.0 {@code TimeSeries} with one sample; labels sorted by name. */
  static byte[] timeSeries(Map<String, String> labels, long t, double v) throws Exception {
    ByteArrayOutputStream ts = new ByteArrayOutputStream();
    CodedOutputStream c = CodedOutputStream.newInstance(ts);
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      ByteArrayOutputStream label = new ByteArrayOutputStream();
      CodedOutputStream l = CodedOutputStream.newInstance(label);
      l.writeString(1, e.getKey());
      l.writeString(2, e.getValue());
      l.flush();
      c.writeByteArray(1, label.toByteArray());
    }
    ByteArrayOutputStream sample = new ByteArrayOutputStream();
    CodedOutputStream s = CodedOutputStream.newInstance(sample);
    s.writeDouble(1, v);
    s.writeInt64(2, t);
    s.flush();
    c.writeByteArray(2, sample.toByteArray());
    c.flush();
    return ts.toByteArray();
  }

  static byte[] writeRequest(List<byte[]> series) throws Exception {
    ByteArrayOutputStream req = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(req);
    for (byte[] ts : series) {
      r.writeByteArray(1, ts);
    }
    r.flush();
    return Snappy.compress(req.toByteArray());
  }
}
