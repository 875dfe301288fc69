package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limits of {@link ParserOptions} hold, with precise errors, and a parser over a stream never
 * reads much past them: an endless body is refused after about one limit's worth of bytes.
 */
class LimitsTest {
  /** An endless page: "a 1\n" forever; counts what was read. */
  static final class EndlessPage extends InputStream {
    private static final byte[] LINE = "a 1\n".getBytes(StandardCharsets.US_ASCII);
    long read;

    @Override
    public int read() {
      return LINE[(int) (read++ % LINE.length)];
    }

    @Override
    public int read(byte[] b, int off, int len) {
      for (int i = 0; i < len; i++) {
        b[off + i] = LINE[(int) ((read + i) % LINE.length)];
      }
      read += len;
      return len;
    }
  }

  /** One line that never ends. */
  static final class EndlessLine extends InputStream {
    long read;

    @Override
    public int read() {
      read++;
      return 'x';
    }

    @Override
    public int read(byte[] b, int off, int len) {
      Arrays.fill(b, off, off + len, (byte) 'x');
      read += len;
      return len;
    }
  }

  private static ParseException drainError(Parser p) {
    return catchThrowableOfType(
        ParseException.class,
        () -> {
          while (p.next() != Entry.EOF) {
            // drain
          }
        });
  }

  private static int countSeries(Parser p) {
    int n = 0;
    try {
      while (p.next() != Entry.EOF) {
        n++;
      }
    } catch (ParseException e) {
      return n;
    }
    return n;
  }

  @Test
  void aBodyFarOverTheLimitIsRefusedAfterReadingAboutTheLimit() {
    ParserOptions options = ParserOptions.builder().maxBodyBytes(1 << 20).build();
    EndlessPage body = new EndlessPage();
    Parser p = Parsers.forFormat(Format.TEXT, options).parse(body);
    int[] series = {0};
    ParseException e =
        catchThrowableOfType(
            ParseException.class,
            () -> {
              while (p.next() != Entry.EOF) {
                series[0]++;
              }
            });
    assertThat(e.getMessage())
        .isEqualTo("line 262145, column 1: body is larger than the limit of 1048576 bytes");
    assertThat(e.reason()).isEqualTo(ParseException.Reason.LIMIT);
    assertThat(series[0]).as("every complete line within the limit").isEqualTo(262144);
    assertThat(body.read).isLessThanOrEqualTo((1 << 20) + 1);
  }

  @Test
  void aBodyOverTheLimitInAnArrayStopsAtTheLimitToo() {
    byte[] body = "a 1\nb 2\nc 3\n".getBytes(StandardCharsets.US_ASCII);
    ParserOptions options = ParserOptions.builder().maxBodyBytes(6).build();
    Parser p = Parsers.forFormat(Format.TEXT, options).parse(body);
    assertThat(drainError(p).getMessage())
        .isEqualTo("line 2, column 3: body is larger than the limit of 6 bytes");
  }

  @Test
  void aOneMebibyteLineIsRefusedWithoutReadingIt() {
    EndlessLine body = new EndlessLine();
    Parser p = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT).parse(body);
    ParseException e = drainError(p);
    assertThat(e.getMessage())
        .isEqualTo("line 1, column 131073: line is longer than the limit of 131072 bytes");
    assertThat(body.read).isLessThan(ParserOptions.DEFAULT_MAX_LINE_BYTES + 70_000L);
  }

  @Test
  void aOneMebibyteLineInAnArrayIsRefused() {
    byte[] line = new byte[(1 << 20) + 2];
    Arrays.fill(line, (byte) 'a');
    line[line.length - 2] = ' ';
    line[line.length - 1] = '1';
    byte[] body =
        ("ok 1\n" + new String(line, StandardCharsets.US_ASCII) + "\n")
            .getBytes(StandardCharsets.US_ASCII);
    Parser p = Parsers.forFormat(Format.OPENMETRICS, ParserOptions.DEFAULT).parse(body);
    assertThat(drainError(p).getMessage())
        .isEqualTo("line 2, column 131073: line is longer than the limit of 131072 bytes");
  }

  @Test
  void lineLimitCountsBytesWithoutTheNewline() throws ParseException {
    ParserOptions options = ParserOptions.builder().maxLineBytes(3).build();
    Parser ok =
        Parsers.forFormat(Format.TEXT, options).parse("a 1\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(ok.next()).isEqualTo(Entry.SERIES);
    Parser tooLong =
        Parsers.forFormat(Format.TEXT, options).parse("a 12\n".getBytes(StandardCharsets.US_ASCII));
    assertThat(drainError(tooLong).getMessage())
        .isEqualTo("line 1, column 4: line is longer than the limit of 3 bytes");
  }

  @Test
  void labelCountNameAndValueLimits() {
    ParserOptions options =
        ParserOptions.builder().maxLabels(2).maxLabelNameBytes(3).maxLabelValueBytes(4).build();
    ParserFactory f = Parsers.forFormat(Format.TEXT, options);
    assertThat(drainError(f.parse(bytes("a{x=\"1\",y=\"2\",z=\"3\"} 1\n"))).getMessage())
        .isEqualTo("line 1, column 15: more labels than the limit of 2");
    assertThat(drainError(f.parse(bytes("a{long=\"1\"} 1\n"))).getMessage())
        .isEqualTo("line 1, column 3: label name \"long\" is longer than the limit of 3 bytes");
    assertThat(drainError(f.parse(bytes("a{x=\"12345\"} 1\n"))).getMessage())
        .isEqualTo("line 1, column 6: value of label \"x\" is longer than the limit of 4 bytes");
    assertThat(drainError(f.parse(bytes("a{x=\"1\"} 1\n")))).isNull();
  }

  @Test
  void completeLinesBeforeTheLimitAreDelivered() {
    ParserOptions options = ParserOptions.builder().maxBodyBytes(9).build();
    Parser p = Parsers.forFormat(Format.TEXT, options).parse(bytes("a 1\nb 2\nc 3\n"));
    assertThat(countSeries(p)).isEqualTo(2);
  }

  @Test
  void invalidOptionsNameTheValue() {
    assertThatThrownBy(() -> ParserOptions.builder().maxLineBytes(0).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxLineBytes must be positive: 0");
    assertThatThrownBy(() -> ParserOptions.builder().maxBodyBytes(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxBodyBytes must be positive: -1");
    assertThatThrownBy(() -> ParserOptions.builder().maxLabels(-1).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("maxLabels must not be negative: -1");
  }

  @Test
  void aFailingStreamBecomesAParseException() {
    InputStream failing =
        new InputStream() {
          int calls;

          @Override
          public int read() throws IOException {
            throw new IOException("connection reset");
          }

          @Override
          public int read(byte[] b, int off, int len) throws IOException {
            if (calls++ == 0) {
              byte[] first = bytes("a 1\nb");
              System.arraycopy(first, 0, b, off, first.length);
              return first.length;
            }
            throw new IOException("connection reset");
          }
        };
    Parser p = Parsers.forFormat(Format.TEXT, ParserOptions.DEFAULT).parse(failing);
    List<String> seen = new ArrayList<>();
    ParseException e =
        catchThrowableOfType(
            ParseException.class,
            () -> {
              while (p.next() != Entry.EOF) {
                seen.add(p.metricName());
              }
            });
    assertThat(seen).containsExactly("a");
    assertThat(e.reason()).isEqualTo(ParseException.Reason.IO);
    assertThat(e.getMessage())
        .isEqualTo(
            "line 2, column 1: reading the body failed: java.io.IOException: connection reset");
    assertThat(e.getCause()).isInstanceOf(IOException.class);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
