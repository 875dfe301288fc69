package dev.infermon.textparse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;

/**
 * Mutated real pages (bytes flipped, inserted, deleted, lines cut and repeated) never make a parser
 * throw anything but {@link ParseException}, and never make it loop: every parse ends within a
 * bounded number of {@code next()} calls (the JUnit deadline catches a hang).
 */
class FuzzTest {
  private static final List<String> SEEDS =
      List.of(
          "fixtures/vllm/vllm-0.11.x-idle.txt",
          "fixtures/vllm/vllm-v0-ray2.32-serve_rayprefix.txt",
          "fixtures/sglang/01_v0.4.1_docs_single_request.prom",
          "fixtures/dcgm/lke-rtx4000ada-pod-attributed-xid.prom",
          "prometheus-textparse/alltypes.5mfs.om.txt",
          "openmetrics-suite/parsers/escaping/metrics",
          "openmetrics-suite/parsers/histogram_exemplars/metrics");

  /** Bytes that matter to the grammars, so that mutations hit interesting states. */
  private static final byte[] ALPHABET =
      "{}\",=# \t\n\\_:.+-eE0123456789aInNfHELPTYPEUNITOF\u0000\u00ff\u00c3\u00a9"
          .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);

  @Provide
  Arbitrary<byte[]> mutatedPages() {
    return Arbitraries.of(SEEDS)
        .flatMap(
            seed -> Arbitraries.longs().map(rnd -> mutate(Resources.bytes(seed), new Random(rnd))));
  }

  static byte[] mutate(byte[] page, Random rnd) {
    byte[] b = page.clone();
    int mutations = 1 + rnd.nextInt(8);
    for (int m = 0; m < mutations && b.length > 0; m++) {
      int at = rnd.nextInt(b.length);
      switch (rnd.nextInt(6)) {
        case 0: // flip to an interesting byte
          b[at] = ALPHABET[rnd.nextInt(ALPHABET.length)];
          break;
        case 1: // random byte
          b[at] = (byte) rnd.nextInt(256);
          break;
        case 2: // delete a run
          {
            int n = Math.min(b.length - at, 1 + rnd.nextInt(16));
            byte[] c = new byte[b.length - n];
            System.arraycopy(b, 0, c, 0, at);
            System.arraycopy(b, at + n, c, at, b.length - at - n);
            b = c;
            break;
          }
        case 3: // insert interesting bytes
          {
            int n = 1 + rnd.nextInt(4);
            byte[] c = new byte[b.length + n];
            System.arraycopy(b, 0, c, 0, at);
            for (int i = 0; i < n; i++) {
              c[at + i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
            }
            System.arraycopy(b, at, c, at + n, b.length - at);
            b = c;
            break;
          }
        case 4: // cut the page
          b = java.util.Arrays.copyOf(b, at);
          break;
        default: // repeat a slice elsewhere
          {
            int n = Math.min(b.length - at, 1 + rnd.nextInt(200));
            int to = rnd.nextInt(b.length);
            byte[] c = new byte[b.length + n];
            System.arraycopy(b, 0, c, 0, to);
            System.arraycopy(b, at, c, to, n);
            System.arraycopy(b, to, c, to + n, b.length - to);
            b = c;
          }
      }
    }
    return b;
  }

  @Property(tries = 400, shrinking = ShrinkingMode.BOUNDED)
  void onlyParseExceptionEscapes(@ForAll("mutatedPages") byte[] page) {
    for (Format format : Format.values()) {
      for (Conformance c : Conformance.values()) {
        ParserOptions o = ParserOptions.builder().conformance(c).build();
        exercise(Parsers.forFormat(format, o).parse(page), page.length);
        exercise(Parsers.forFormat(format, o).parse(new TrickleInputStream(page, 13)), page.length);
      }
    }
  }

  /** Drains a parser, touching every accessor, resuming after line-local errors like a checker. */
  private static void exercise(Parser p, int length) {
    int calls = 0;
    int bound = 4 * (length + 10);
    while (calls++ < bound) {
      Entry e;
      try {
        e = p.next();
      } catch (ParseException ex) {
        assertThat(ex.line()).isPositive();
        assertThat(ex.column()).isPositive();
        assertThat(ex.getMessage()).startsWith("line " + ex.line() + ", column " + ex.column());
        assertThat(ex.reason()).isNotEqualTo(ParseException.Reason.INTERNAL);
        if (!ex.isLineLocal()) {
          return;
        }
        continue;
      }
      if (e == Entry.EOF) {
        return;
      }
      touch(p, e);
    }
    throw new AssertionError("no end after " + bound + " calls to next()");
  }

  private static void touch(Parser p, Entry e) {
    switch (e) {
      case HELP:
        assertThat(p.help()).isNotNull();
        assertThat(p.familyName()).isNotEmpty();
        break;
      case TYPE:
        assertThat(p.type()).isNotNull();
        break;
      case UNIT:
        assertThat(p.unit()).isNotNull();
        break;
      case COMMENT:
        assertThat(p.comment()).startsWith("#");
        break;
      default:
        assertThat(p.labels().metricName()).isEqualTo(p.metricName());
        assertThat(p.seriesLength()).isPositive();
        for (int i = 0; i < p.labelCount(); i++) {
          assertThat(p.labelName(i)).isNotEmpty();
          assertThat(p.labelValue(i)).isNotNull();
        }
        p.exemplar();
        p.seriesHash();
    }
  }
}
