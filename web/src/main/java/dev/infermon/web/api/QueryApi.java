package dev.infermon.web.api;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.model.text.GoFloat;
import dev.infermon.promql.QueryBackend;
import dev.infermon.promql.parser.Expr;
import dev.infermon.promql.parser.ParseException;
import dev.infermon.promql.parser.Printer;
import dev.infermon.promql.parser.PromqlParser;
import dev.infermon.promql.value.Matrix;
import dev.infermon.promql.value.QueryResult;
import dev.infermon.promql.value.Sample;
import dev.infermon.promql.value.Scalar;
import dev.infermon.promql.value.StringValue;
import dev.infermon.promql.value.TimeSeries;
import dev.infermon.promql.value.Value;
import dev.infermon.promql.value.Vector;
import dev.infermon.web.http.BodyTooLargeException;
import dev.infermon.web.http.Exchange;
import java.io.IOException;
import java.util.function.LongSupplier;

/**
 * {@code /api/v1/query}, {@code /api/v1/query_range} and {@code /api/v1/format_query}, with
 * Prometheus's parameter checks in Prometheus's order and its messages. Queries pass through the
 * {@link QueryGate}. Thread-safe.
 */
final class QueryApi {
  /** Prometheus's limit on points per series; more is a {@code bad_data} error. */
  static final long MAX_POINTS = 11_000;

  static final String TOO_MANY_POINTS =
      "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query"
          + " resolution (?step=XX)";

  private final Backends backends;
  private final QueryGate gate;
  private final long queryTimeoutMs;
  private final LongSupplier nowMs;

  QueryApi(Backends backends, QueryGate gate, long queryTimeoutMs, LongSupplier nowMs) {
    this.backends = backends;
    this.gate = gate;
    this.queryTimeoutMs = queryTimeoutMs;
    this.nowMs = nowMs;
  }

  void instant(Exchange ex) throws IOException, BodyTooLargeException {
    long time = timeParam(ex, "time", nowMs.getAsLong());
    long wait = timeout(ex);
    String query = ex.param("query");
    parse(query, true);
    QueryBackend backend = backends.queries();
    QueryResult r = gate.run(wait, left -> backend.instantQuery(query, time, left));
    respond(ex, r);
  }

  void range(Exchange ex) throws IOException, BodyTooLargeException {
    long start = time(ex, "start");
    long end = time(ex, "end");
    if (end < start) {
      throw ApiException.invalidParam("end", "end timestamp must not be before start time");
    }
    long step = duration(ex, "step");
    if (step <= 0) {
      throw ApiException.invalidParam(
          "step",
          "zero or negative query resolution step widths are not accepted. Try a positive"
              + " integer");
    }
    if ((end - start) / step > MAX_POINTS) {
      throw new ApiException(ErrorType.BAD_DATA, TOO_MANY_POINTS);
    }
    long wait = timeout(ex);
    String query = ex.param("query");
    parse(query, false);
    QueryBackend backend = backends.queries();
    QueryResult r = gate.run(wait, left -> backend.rangeQuery(query, start, end, step, left));
    respond(ex, r);
  }

  void format(Exchange ex) throws IOException, BodyTooLargeException {
    Expr e = parse(ex.param("query"), true);
    String printed = Printer.print(e);
    Envelope.success(ex, g -> g.writeString(printed));
  }

  /**
   * Parses for validation; the instant query and format_query name the parameter, range does not.
   */
  private static Expr parse(String query, boolean nameParam) {
    try {
      return PromqlParser.parse(query);
    } catch (ParseException e) {
      if (nameParam) {
        throw ApiException.invalidParam("query", e.prometheusMessage());
      }
      throw new ApiException(ErrorType.BAD_DATA, e.prometheusMessage());
    }
  }

  /**
   * {@code --query.timeout}, or the request's {@code timeout} when shorter: wait and evaluation.
   */
  private long timeout(Exchange ex) throws IOException, BodyTooLargeException {
    String to = ex.param("timeout");
    if (to.isEmpty()) {
      return queryTimeoutMs;
    }
    try {
      return Math.min(queryTimeoutMs, Params.duration(to));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam("timeout", e.getMessage());
    }
  }

  static long timeParam(Exchange ex, String name, long dflt)
      throws IOException, BodyTooLargeException {
    String v = ex.param(name);
    if (v.isEmpty()) {
      return dflt;
    }
    try {
      return Params.time(v);
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(
          name, "Invalid time value for '" + name + "': " + e.getMessage());
    }
  }

  private static long time(Exchange ex, String name) throws IOException, BodyTooLargeException {
    try {
      return Params.time(ex.param(name));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }

  private static long duration(Exchange ex, String name) throws IOException, BodyTooLargeException {
    try {
      return Params.duration(ex.param(name));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam(name, e.getMessage());
    }
  }

  private static void respond(Exchange ex, QueryResult r) {
    Envelope.success(
        ex,
        g -> {
          g.writeStartObject();
          g.writeStringField("resultType", r.value().resultType());
          g.writeFieldName("result");
          value(g, r.value());
          g.writeEndObject();
        },
        r.annotations().warnings(),
        r.annotations().infos());
  }

  /** A query value in Prometheus's JSON form. */
  static void value(JsonGenerator g, Value v) throws IOException {
    // Prometheus marshals scalars and strings as [float64(t)/1000, ...] with Go's JSON float
    // encoding (1.5, not 1.500), unlike the points of vectors and matrices.
    if (v instanceof Scalar) {
      Scalar s = (Scalar) v;
      g.writeStartArray();
      g.writeNumber(GoFloat.formatF(s.timestampMs() / 1000.0));
      g.writeString(GoFloat.formatF(s.value()));
      g.writeEndArray();
    } else if (v instanceof StringValue) {
      StringValue s = (StringValue) v;
      g.writeStartArray();
      g.writeNumber(GoFloat.formatF(s.timestampMs() / 1000.0));
      g.writeString(s.value());
      g.writeEndArray();
    } else if (v instanceof Vector) {
      g.writeStartArray();
      for (Sample s : ((Vector) v).samples()) {
        g.writeStartObject();
        g.writeFieldName("metric");
        Json.labels(g, s.labels());
        g.writeFieldName("value");
        Json.point(g, s.timestampMs(), s.value());
        g.writeEndObject();
      }
      g.writeEndArray();
    } else {
      g.writeStartArray();
      for (TimeSeries ts : ((Matrix) v).series()) {
        g.writeStartObject();
        g.writeFieldName("metric");
        Json.labels(g, ts.labels());
        g.writeFieldName("values");
        g.writeStartArray();
        for (int i = 0; i < ts.size(); i++) {
          Json.point(g, ts.timestampAt(i), ts.valueAt(i));
        }
        g.writeEndArray();
        g.writeEndObject();
      }
      g.writeEndArray();
    }
  }
}
