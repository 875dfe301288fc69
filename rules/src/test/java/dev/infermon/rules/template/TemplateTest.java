package dev.infermon.rules.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Template expansion as Prometheus's {@code template/template_test.go} (TestTemplateExpansion)
 * specifies it: each row is one of its scenarios, with its input, query result and expected output
 * or error. Rows for features infermon leaves out (HTML mode, {@code toTime}, {@code tmpl}) are
 * omitted; Go's unsigned-integer inputs are left out (Java has no uint64 values in templates).
 * Errors are compared without Prometheus's "error executing template test: " prefix.
 */
class TemplateTest {
  private static final List<QuerySample> METRIC_A =
      List.of(new QuerySample(Map.of("__name__", "metric", "instance", "a"), 11));

  record Case(String text, Object input, List<QuerySample> query, String output, String error) {
    @Override
    public String toString() {
      return text;
    }
  }

  static Case ok(String text, String output) {
    return new Case(text, null, List.of(), output, null);
  }

  static Case ok(String text, Object input, String output) {
    return new Case(text, input, List.of(), output, null);
  }

  static Case query(String text, List<QuerySample> result, String output) {
    return new Case(text, null, result, output, null);
  }

  static Case fails(String text, Object input, List<QuerySample> result, String error) {
    return new Case(text, input, result, null, error);
  }

  static List<Object> list(Object... xs) {
    return new ArrayList<>(Arrays.asList(xs));
  }

  static Stream<Case> cases() {
    return Stream.of(
        ok("plain text", "plain text"),
        ok("{{ 1 }}", "1"),
        fails(
            "{{\u00a0}}",
            null,
            List.of(),
            "template: test:1: unrecognized character in action: U+00A0"),
        ok("{{ \"<b>\" }}", "<b>"),
        query(
            "{{ query \"1.5\" | first | value }}", List.of(new QuerySample(Map.of(), 1.5)), "1.5"),
        query("{{ query \"metric{instance='a'}\" | first | value }}", METRIC_A, "11"),
        query("{{ query \"metric{instance='a'}\" | first | label \"instance\" }}", METRIC_A, "a"),
        query(
            "{{ query \"metric{__value__='a'}\" | first | strvalue }}",
            List.of(new QuerySample(Map.of("__name__", "metric", "__value__", "a"), 11)),
            "a"),
        query("{{ query \"metric{instance='a'}\" | first | label \"foo\" }}", METRIC_A, ""),
        query("{{ $x := query \"metric\" | first }}{{ $x.Labels.foo }}", METRIC_A, ""),
        query(
            "{{ range query \"metric\" | sortByLabel \"instance\" }}{{.Labels.instance}}:{{.Value}}: {{end}}",
            List.of(
                new QuerySample(Map.of("__name__", "metric", "instance", "b"), 21),
                new QuerySample(Map.of("__name__", "metric", "instance", "a"), 11)),
            "a:11: b:21: "),
        ok("{{ \"foo.example.com\" | stripPort }}", "foo.example.com"),
        ok("{{ \"foo.example.com:12345\" | stripPort }}", "foo.example.com"),
        ok("{{ \"192.0.2.1\" | stripPort }}", "192.0.2.1"),
        ok("{{ \"192.0.2.1:12345\" | stripPort }}", "192.0.2.1"),
        ok("{{ \"2001:0DB8::1\" | stripPort }}", "2001:0DB8::1"),
        ok("{{ \"[2001:0DB8::1]:12345\" | stripPort }}", "2001:0DB8::1"),
        ok("{{ \"[2001:0DB8::1]::12345\" | stripPort }}", "[2001:0DB8::1]::12345"),
        ok("{{ .Foo }}", "<no value>"),
        fails("{{", null, List.of(), "template: test:1: unclosed action"),
        fails(
            "{{ query \"missing\" | first }}",
            null,
            List.of(),
            "template: test:1:21: executing \"test\" at <first>: error calling first: first()"
                + " called on vector with no elements"),
        fails(
            "{{ (query \"missing\").banana }}",
            null,
            List.of(),
            "template: test:1:10: executing \"test\" at <\"missing\">: can't evaluate field banana"
                + " in type template.queryResult"),
        ok("{{ reReplaceAll \"(a)b\" \"x$1\" \"ab\" }}", "xa"),
        ok(
            "{{ range . }}{{ humanize . }}:{{ end }}",
            list(0.0, 1.0, 1234567.0, .12),
            "0:1:1.235M:120m:"),
        ok(
            "{{ range . }}{{ humanize . }}:{{ end }}",
            list("0.0", "1.0", "1234567.0", ".12"),
            "0:1:1.235M:120m:"),
        fails(
            "{{ humanize \"one\" }}",
            null,
            List.of(),
            "template: test:1:3: executing \"test\" at <humanize \"one\">: error calling humanize:"
                + " strconv.ParseFloat: parsing \"one\": invalid syntax"),
        ok(
            "{{ range . }}{{ humanize . }}:{{ end }}",
            list(0L, -1L, 1L, 1234567L, Long.MAX_VALUE),
            "0:-1:1:1.235M:9.223E:"),
        ok(
            "{{ range . }}{{ humanize1024 . }}:{{ end }}",
            list(0.0, 1.0, 1048576.0, .12),
            "0:1:1Mi:0.12:"),
        ok(
            "{{ range . }}{{ humanize1024 . }}:{{ end }}",
            list("0.0", "1.0", "1048576.0", ".12"),
            "0:1:1Mi:0.12:"),
        fails(
            "{{ humanize1024 \"one\" }}",
            null,
            List.of(),
            "template: test:1:3: executing \"test\" at <humanize1024 \"one\">: error calling"
                + " humanize1024: strconv.ParseFloat: parsing \"one\": invalid syntax"),
        ok(
            "{{ range . }}{{ humanize1024 . }}:{{ end }}",
            list(0L, -1L, 1L, 1234567L, Long.MAX_VALUE),
            "0:-1:1:1.177Mi:8Ei:"),
        ok(
            "{{ range . }}{{ humanizeDuration . }}:{{ end }}",
            list(
                0.0,
                1.0,
                60.0,
                3600.0,
                86400.0,
                86400.0 + 3600,
                -(86400.0 * 2 + 3600 * 3 + 60 * 4 + 5),
                899.99),
            "0s:1s:1m 0s:1h 0m 0s:1d 0h 0m 0s:1d 1h 0m 0s:-2d 3h 4m 5s:14m 59s:"),
        ok(
            "{{ range . }}{{ humanizeDuration . }}:{{ end }}",
            list("0", "1", "60", "3600", "86400"),
            "0s:1s:1m 0s:1h 0m 0s:1d 0h 0m 0s:"),
        ok(
            "{{ range . }}{{ humanizeDuration . }}:{{ end }}",
            list(.1, .0001, .12345, 60.1, 60.5, 1.2345, 12.345),
            "100ms:100us:123.5ms:1m 0s:1m 0s:1.234s:12.35s:"),
        ok(
            "{{ range . }}{{ humanizeDuration . }}:{{ end }}",
            list(".1", ".0001", ".12345", "60.1", "60.5", "1.2345", "12.345"),
            "100ms:100us:123.5ms:1m 0s:1m 0s:1.234s:12.35s:"),
        fails(
            "{{ humanizeDuration \"one\" }}",
            null,
            List.of(),
            "template: test:1:3: executing \"test\" at <humanizeDuration \"one\">: error calling"
                + " humanizeDuration: strconv.ParseFloat: parsing \"one\": invalid syntax"),
        ok(
            "{{ range . }}{{ humanizeDuration . }}:{{ end }}",
            list(0L, -1L, 1L, 1234567L),
            "0s:-1s:1s:14d 6h 56m 7s:"),
        ok(
            "{{ range . }}{{ humanize . }}:{{ humanize1024 . }}:{{ humanizeDuration . }}:{{humanizeTimestamp .}}:{{ end }}",
            list(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NaN),
            "+Inf:+Inf:+Inf:+Inf:-Inf:-Inf:-Inf:-Inf:NaN:NaN:NaN:NaN:"),
        ok(
            "{{ range . }}{{ humanize . }}:{{ humanize1024 . }}:{{ humanizeDuration . }}:{{humanizeTimestamp .}}:{{ end }}",
            list("+Inf", "-Inf", "NaN"),
            "+Inf:+Inf:+Inf:+Inf:-Inf:-Inf:-Inf:-Inf:NaN:NaN:NaN:NaN:"),
        ok(
            "{{ -0.22222 | humanizePercentage }}:{{ 0.0 | humanizePercentage }}:{{ 0.1234567 | humanizePercentage }}:{{ 1.23456 | humanizePercentage }}",
            "-22.22%:0%:12.35%:123.5%"),
        ok(
            "{{ range . }}{{ humanizePercentage . }}:{{ end }}",
            list(0L, -1L, 1L, 1234567L, Long.MAX_VALUE),
            "0%:-100%:100%:1.235e+08%:9.223e+20%:"),
        ok(
            "{{ \"-0.22222\" | humanizePercentage }}:{{ \"0.0\" | humanizePercentage }}:{{ \"0.1234567\" | humanizePercentage }}:{{ \"1.23456\" | humanizePercentage }}",
            "-22.22%:0%:12.35%:123.5%"),
        fails(
            "{{ \"one\" | humanizePercentage }}",
            null,
            List.of(),
            "template: test:1:11: executing \"test\" at <humanizePercentage>: error calling"
                + " humanizePercentage: strconv.ParseFloat: parsing \"one\": invalid syntax"),
        ok(
            "{{ range . }}{{ humanizeTimestamp . }}:{{ end }}",
            list(0L, -1L, 1L, 1234567L, 9223372036L),
            "1970-01-01 00:00:00 +0000 UTC:1969-12-31 23:59:59 +0000 UTC:1970-01-01 00:00:01 +0000"
                + " UTC:1970-01-15 06:56:07 +0000 UTC:2262-04-11 23:47:16 +0000 UTC:"),
        fails(
            "{{ range . }}{{ humanizeTimestamp . }}:{{ end }}",
            list(Long.MIN_VALUE, Long.MAX_VALUE),
            List.of(),
            "template: test:1:16: executing \"test\" at <humanizeTimestamp .>: error calling"
                + " humanizeTimestamp: -9.223372036854776e+18 cannot be represented as a"
                + " nanoseconds timestamp since it overflows int64"),
        ok("{{ 1435065584.128 | humanizeTimestamp }}", "2015-06-23 13:19:44.128 +0000 UTC"),
        ok("{{ \"1435065584.128\" | humanizeTimestamp }}", "2015-06-23 13:19:44.128 +0000 UTC"),
        ok("{{ \"aa bb CC\" | title }}", "Aa Bb CC"),
        ok("{{ \"aa bb CC\" | toUpper }}", "AA BB CC"),
        ok("{{ \"aA bB CC\" | toLower }}", "aa bb cc"),
        ok("{{ match \"a+\" \"aa\" }} {{ match \"a+\" \"b\" }}", "true false"),
        ok("{{ graphLink \"up\" }}", "/graph?g0.expr=up&g0.tab=0"),
        ok("{{ tableLink \"up\" }}", "/graph?g0.expr=up&g0.tab=1"),
        ok("{{ pathPrefix }}", "/path/prefix"),
        ok("{{ externalURL }}", "http://testhost:9090/path/prefix"),
        ok("{{ printf \"%0.2f\" (parseDuration \"1h2m10ms\") }}", "3720.01"),
        ok("{{ \"foo.example.com\" | stripDomain }}", "foo"),
        ok("{{ \"foo.example.com:12345\" | stripDomain }}", "foo:12345"),
        ok("{{ \"192.0.2.1\" | stripDomain }}", "192.0.2.1"),
        ok("{{ \"192.0.2.1:12345\" | stripDomain }}", "192.0.2.1:12345"),
        ok("{{ \"2001:0DB8::1\" | stripDomain }}", "2001:0DB8::1"),
        ok("{{ \"[2001:0DB8::1]:12345\" | stripDomain }}", "[2001:0DB8::1]:12345"),
        ok("{{ \"[2001:0DB8::1]::12345\" | stripDomain }}", "[2001:0DB8::1]::12345"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void expandsAsPrometheus(Case c) {
    TemplateContext ctx =
        new TemplateContext() {
          @Override
          public List<QuerySample> query(String promql) {
            return c.query();
          }

          @Override
          public String externalUrl() {
            return "http://testhost:9090/path/prefix";
          }
        };
    if (c.error() != null) {
      assertThatThrownBy(
              () -> Template.parse("test", c.text(), List.of()).execute(c.input(), List.of(), ctx))
          .hasMessage(c.error());
    } else {
      assertThat(Template.parse("test", c.text(), List.of()).execute(c.input(), List.of(), ctx))
          .isEqualTo(c.output());
    }
  }
}
