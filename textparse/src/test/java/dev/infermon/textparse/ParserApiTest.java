package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.infermon.model.labels.Labels;
import dev.infermon.model.metadata.MetricType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The {@link Parser} contract: accessors, lifetimes, interning, errors, format selection. */
class ParserApiTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Parser text(String page) {
    return Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT).parse(bytes(page));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "application/openmetrics-text; version=1.0.0; charset=utf-8 | OPENMETRICS",
        "application/openmetrics-text; version=0.0.1 | OPENMETRICS",
        "Application/OpenMetrics-Text | OPENMETRICS",
        "text/plain; version=0.0.4; charset=utf-8 | TEXT",
        "text/plain; version=1.0.0; escaping=allow-utf-8 | TEXT",
        "'' | TEXT",
        "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily | TEXT",
        "text/html | TEXT",
        ";;; | TEXT"
      })
  void theContentTypeChoosesTheFormatWithTextAsFallback(String contentType, Format expected) {
    assertThat(Parsers.formatFor(contentType)).isEqualTo(expected);
    assertThat(Parsers.forContentType(contentType, ParserOptions.DEFAULT).format())
        .isEqualTo(expected);
  }

  @Test
  void aMissingContentTypeIsText() {
    assertThat(Parsers.formatFor(null)).isEqualTo(Format.TEXT);
  }

  @Test
  void entriesAndTheirAccessors() throws ParseException {
    Parser p =
        text(
            "# HELP vllm:x Line one\\nand \\\\ two.\n"
                + "# TYPE vllm:x counter\n"
                + "# a comment\n"
                + "\n"
                + "vllm:x{model_name=\"m\",engine=\"0\",empty=\"\"} 3 1700000000000\n");
    assertThat(p.next()).isEqualTo(Entry.HELP);
    assertThat(p.line()).isEqualTo(1);
    assertThat(p.familyName()).isEqualTo("vllm:x");
    assertThat(p.help()).isEqualTo("Line one\nand \\ two.");
    assertThat(p.next()).isEqualTo(Entry.TYPE);
    assertThat(p.type()).isEqualTo(MetricType.COUNTER);
    assertThat(p.next()).isEqualTo(Entry.COMMENT);
    assertThat(p.comment()).isEqualTo("# a comment");
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThat(p.line()).isEqualTo(5);
    assertThat(p.metricName()).isEqualTo("vllm:x");
    assertThat(p.labelCount()).isEqualTo(3);
    assertThat(p.labelName(1)).isEqualTo("engine");
    assertThat(p.labelValue(2)).isEmpty();
    assertThat(p.labels())
        .isEqualTo(Labels.of("__name__", "vllm:x", "engine", "0", "model_name", "m"));
    assertThat(p.value()).isEqualTo(3.0);
    assertThat(p.hasTimestamp()).isTrue();
    assertThat(p.timestamp()).isEqualTo(1_700_000_000_000L);
    assertThat(p.exemplar()).isEmpty();
    String series =
        new String(p.seriesBuffer(), p.seriesOffset(), p.seriesLength(), StandardCharsets.UTF_8);
    assertThat(series).isEqualTo("vllm:x{model_name=\"m\",engine=\"0\",empty=\"\"}");
    assertThat(p.next()).isEqualTo(Entry.EOF);
    assertThat(p.next()).as("EOF again").isEqualTo(Entry.EOF);
  }

  @Test
  void accessorsOfAnotherEntryAreCallerMistakes() throws ParseException {
    Parser p = text("# TYPE a gauge\na 1\n");
    assertThatThrownBy(p::value)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the current entry is null, this accessor belongs to SERIES");
    p.next();
    assertThatThrownBy(p::help)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the current entry is TYPE, this accessor belongs to HELP");
    p.next();
    assertThatThrownBy(() -> p.labelName(0)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void equalSeriesHaveEqualBytesAndHashes() throws ParseException {
    Parser p = text("a{x=\"1\"} 1\nb 2\na{x=\"1\"} 3\n");
    p.next();
    byte[] first =
        Arrays.copyOfRange(p.seriesBuffer(), p.seriesOffset(), p.seriesOffset() + p.seriesLength());
    long firstHash = p.seriesHash();
    p.next();
    assertThat(p.seriesHash()).isNotEqualTo(firstHash);
    p.next();
    assertThat(
            Arrays.equals(
                first,
                0,
                first.length,
                p.seriesBuffer(),
                p.seriesOffset(),
                p.seriesOffset() + p.seriesLength()))
        .isTrue();
    assertThat(p.seriesHash()).isEqualTo(firstHash);
  }

  @Test
  void aSharedSymbolTableReturnsTheSameStrings() throws ParseException {
    SymbolTable symbols = new SymbolTable();
    ParserFactory f = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT);
    byte[] page = bytes("vllm:num_requests_running{model_name=\"Qwen/Qwen3-0.6B\"} 1\n");
    Parser first = f.parse(page, 0, page.length, symbols);
    first.next();
    Parser second = f.parse(page, 0, page.length, symbols);
    second.next();
    assertThat(second.metricName()).isSameAs(first.metricName());
    assertThat(second.labelValue(0)).isSameAs(first.labelValue(0));
    assertThat(symbols.size())
        .as("name and value; the label name was never asked for")
        .isEqualTo(2);
  }

  @Test
  void theSymbolTableStaysBounded() {
    SymbolTable symbols = new SymbolTable(16);
    ParserFactory f = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT);
    for (int i = 0; i < 100; i++) {
      byte[] page = bytes("a{id=\"" + i + "\"} 1\n");
      Parser p = f.parse(page, 0, page.length, symbols);
      try {
        p.next();
      } catch (ParseException e) {
        throw new AssertionError(e);
      }
      assertThat(p.labelValue(0)).isEqualTo(Integer.toString(i));
      assertThat(symbols.size()).isLessThanOrEqualTo(16);
    }
    assertThatThrownBy(() -> new SymbolTable(8))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("symbol table capacity must be at least 16: 8");
  }

  @Test
  void lineLocalErrorsResumeAtTheNextLineOthersStick() throws ParseException {
    Parser p = text("a 1\nb{ 2\nc 3\n");
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    ParseException e = catchThrowableOfType(ParseException.class, p::next);
    assertThat(e.isLineLocal()).isTrue();
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThat(p.metricName()).isEqualTo("c");

    Parser om = Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT).parse(bytes("a 1\n"));
    assertThat(om.next()).isEqualTo(Entry.SERIES);
    ParseException noEof = catchThrowableOfType(ParseException.class, om::next);
    assertThat(noEof.isLineLocal()).isFalse();
    assertThat(catchThrowableOfType(ParseException.class, om::next)).isSameAs(noEof);
  }

  @Test
  void openMetricsExemplarsUnitsAndSecondTimestamps() throws ParseException {
    Parser p =
        Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT)
            .parse(
                bytes(
                    "# TYPE vllm:prompt_tokens counter\n"
                        + "# UNIT vllm:prompt_tokens tokens\n"
                        + "vllm:prompt_tokens_total{engine=\"0\"} 12 1700000000.5"
                        + " # {trace_id=\"abc\"} 1 1700000000.25\n"
                        + "# EOF\n"));
    assertThat(p.next()).isEqualTo(Entry.TYPE);
    assertThat(p.next()).isEqualTo(Entry.UNIT);
    assertThat(p.unit()).isEqualTo("tokens");
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThat(p.timestamp()).isEqualTo(1_700_000_000_500L);
    Exemplar ex = p.exemplar().orElseThrow();
    assertThat(ex.labels()).isEqualTo(Labels.of("trace_id", "abc"));
    assertThat(ex.value()).isEqualTo(1.0);
    assertThat(ex.timestamp()).isEqualTo(1_700_000_000_250L);
    assertThat(p.next()).isEqualTo(Entry.EOF);
  }

  @Test
  void quotedUtf8NamesOfTextFormat100() throws ParseException {
    Parser p = text("{\"my.metric\", \"label.name\"=\"v\", a=\"b\",} 1\n");
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThat(p.labels())
        .isEqualTo(Labels.of("__name__", "my.metric", "label.name", "v", "a", "b"));
  }

  @Test
  void aPageWithoutTrailingNewlineKeepsItsLastLine() throws ParseException {
    Parser p = text("a 1\nb 2");
    p.next();
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThat(p.metricName()).isEqualTo("b");
    assertThat(p.next()).isEqualTo(Entry.EOF);
  }

  @Test
  void everyNanIsTheNormalNan() throws ParseException {
    Parser p = text("a NaN\nb nan\n");
    p.next();
    assertThat(Double.doubleToRawLongBits(p.value())).isEqualTo(0x7ff8000000000001L);
    p.next();
    assertThat(Double.doubleToRawLongBits(p.value())).isEqualTo(0x7ff8000000000001L);
  }

  /** Hashes of the metadata lines of one page, in order, by the given format's parser. */
  private static long[] metadataHashes(Format f, String page) throws ParseException {
    Parser p = Parsers.forFormat(f, ParserOptions.DEFAULT).parse(bytes(page));
    long[] out = new long[0];
    for (Entry e = p.next(); e != Entry.EOF; e = p.next()) {
      if (e == Entry.HELP || e == Entry.TYPE || e == Entry.UNIT) {
        out = Arrays.copyOf(out, out.length + 1);
        out[out.length - 1] = p.metadataHash();
      }
    }
    return out;
  }

  @Test
  void metadataHashesTellLinesApartByNameKindAndText() throws ParseException {
    long[] h =
        metadataHashes(
            Format.TEXT,
            "# HELP a A.\n# TYPE a counter\n# HELP a A.\n# HELP b A.\n# HELP a B.\n"
                + "# TYPE a gauge\n# HELP a counter\n");
    assertThat(h).hasSize(7);
    assertThat(h[2]).as("the same line again").isEqualTo(h[0]);
    assertThat(h[3]).as("another family").isNotEqualTo(h[0]);
    assertThat(h[4]).as("another text").isNotEqualTo(h[0]);
    assertThat(h[5]).as("another type").isNotEqualTo(h[1]);
    assertThat(h[6]).as("HELP with the text of a TYPE").isNotEqualTo(h[1]);

    long[] om =
        metadataHashes(
            Format.OPENMETRICS,
            "# TYPE x_seconds gauge\n# UNIT x_seconds seconds\n# HELP x_seconds X.\n"
                + "x_seconds 1\n# EOF\n");
    assertThat(om).hasSize(3).doesNotHaveDuplicates();
  }

  @Test
  void metadataHashBelongsToMetadataLines() throws ParseException {
    Parser p = text("a 1\n");
    assertThat(p.next()).isEqualTo(Entry.SERIES);
    assertThatThrownBy(p::metadataHash).isInstanceOf(IllegalStateException.class);
  }
}
