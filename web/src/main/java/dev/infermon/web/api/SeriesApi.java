package dev.infermon.web.api;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.labels.Matcher;
import dev.infermon.model.metadata.Metadata;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * {@code /api/v1/series}, {@code /api/v1/labels}, {@code /api/v1/label/<name>/values} and {@code
 * /api/v1/metadata}. Without {@code start}/{@code end} the whole time range is searched, as
 * Prometheus does. Thread-safe.
 */
final class SeriesApi {
  private static final Pattern LABEL_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private final Backends backends;

  SeriesApi(Backends backends) {
    this.backends = backends;
  }

  void series(Exchange ex) throws IOException, BodyTooLargeException {
    List<String> match = ex.params("match[]");
    if (match.isEmpty()) {
      throw new ApiException(ErrorType.BAD_DATA, "no match[] parameter provided");
    }
    long start = QueryApi.timeParam(ex, "start", Params.MIN_TIME);
    long end = QueryApi.timeParam(ex, "end", Params.MAX_TIME);
    for (String m : match) {
      List<Matcher> matchers;
      try {
        matchers = PromqlParser.parseMetricSelector(m);
      } catch (ParseException e) {
        throw ApiException.invalidParam("match[]", e.prometheusMessage());
      }
      if (matchers.stream().allMatch(x -> x.matches(""))) {
        throw ApiException.invalidParam(
            "match[]", "match[] must contain at least one non-empty matcher");
      }
    }
    List<Labels> series = backends.queries().series(match, start, end);
    Envelope.success(
        ex,
        g -> {
          g.writeStartArray();
          for (Labels l : series) {
            Json.labels(g, l);
          }
          g.writeEndArray();
        });
  }

  void labelNames(Exchange ex) throws IOException, BodyTooLargeException {
    long start = QueryApi.timeParam(ex, "start", Params.MIN_TIME);
    long end = QueryApi.timeParam(ex, "end", Params.MAX_TIME);
    List<String> match = checkedMatchers(ex);
    List<String> names = backends.queries().labelNames(match, start, end);
    Envelope.success(ex, g -> Json.strings(g, names));
  }

  void labelValues(Exchange ex) throws IOException, BodyTooLargeException {
    String name = ex.pathParam();
    if (!LABEL_NAME.matcher(name).matches()) {
      throw new ApiException(ErrorType.BAD_DATA, "invalid label name: \"" + name + "\"");
    }
    long start = QueryApi.timeParam(ex, "start", Params.MIN_TIME);
    long end = QueryApi.timeParam(ex, "end", Params.MAX_TIME);
    List<String> match = checkedMatchers(ex);
    List<String> values = backends.queries().labelValues(name, match, start, end);
    Envelope.success(ex, g -> Json.strings(g, values));
  }

  /** Parse errors of {@code match[]} here carry no parameter name (Prometheus's wording). */
  private static List<String> checkedMatchers(Exchange ex)
      throws IOException, BodyTooLargeException {
    List<String> match = ex.params("match[]");
    for (String m : match) {
      try {
        PromqlParser.parseMetricSelector(m);
      } catch (ParseException e) {
        throw new ApiException(ErrorType.BAD_DATA, e.prometheusMessage());
      }
    }
    return match;
  }

  void metadata(Exchange ex) throws IOException, BodyTooLargeException {
    int limit = intParam(ex, "limit");
    int perMetric = intParam(ex, "limit_per_metric");
    String metric = ex.param("metric");
    Map<String, List<Metadata>> all =
        new TreeMap<>(backends.queries().metadata(metric.isEmpty() ? null : metric));
    Map<String, List<Metadata>> out = new TreeMap<>();
    for (Map.Entry<String, List<Metadata>> e : all.entrySet()) {
      if (limit >= 0 && out.size() >= limit) {
        break;
      }
      List<Metadata> list = new ArrayList<>(e.getValue());
      if (perMetric > 0 && list.size() > perMetric) {
        list = list.subList(0, perMetric);
      }
      out.put(e.getKey(), list);
    }
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          for (Map.Entry<String, List<Metadata>> e : out.entrySet()) {
            g.writeFieldName(e.getKey());
            g.writeStartArray();
            for (Metadata m : e.getValue()) {
              g.writeStartObject();
              g.writeStringField("type", m.type().exposedName());
              g.writeStringField("help", m.help());
              g.writeStringField("unit", m.unit());
              g.writeEndObject();
            }
            g.writeEndArray();
          }
          g.writeEndObject();
        });
  }

  private static int intParam(Exchange ex, String name) throws IOException, BodyTooLargeException {
    String s = ex.param(name);
    if (s.isEmpty()) {
      return -1;
    }
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      throw new ApiException(ErrorType.BAD_DATA, name + " must be a number");
    }
  }
}
