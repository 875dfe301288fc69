package dev.infermon.promql.promqltest;

import java.util.HashMap;
import java.util.Map;

/**
 * The one list of Prometheus script evals the engine does not run, each with its reason (mirrored
 * in {@code docs/promql-compatibility.md}). Evals that read or expect native histograms are found
 * by the runner itself ({@link Session#unsupportedReason}) and are not listed here.
 */
final class PrometheusSkips {
  private static final Map<String, Map<Integer, String>> SKIPS = new HashMap<>();

  static {
    skip(
        "aggregators.test",
        239,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        252,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        378,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        382,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        386,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        390,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        404,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        408,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        412,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        416,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        520,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        814,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "aggregators.test",
        817,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip(
        "operators.test",
        292,
        "the selection also holds native histograms, whose 'ignored histogram' info the float-only engine cannot produce");
    skip("functions.test", 1649, "counts native-histogram samples mixed with floats in one series");
    skip(
        "aggregators.test",
        425,
        "limitk is experimental (promql-experimental-functions) and not implemented");
    skip(
        "aggregators.test",
        428,
        "limit_ratio is experimental and samples by Go's label hash, which is not reproduced");
    skip(
        "functions.test",
        523,
        "the label name is invalid UTF-8 (\\xff), which a Java string cannot hold");
    skip(
        "functions.test",
        2221,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2224,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2227,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2230,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2234,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2237,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2241,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2244,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2248,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2251,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2255,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2258,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2261,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
    skip(
        "functions.test",
        2264,
        "min_of/max_of belong to experimental duration expressions, which the parser rejects");
  }

  private PrometheusSkips() {}

  private static void skip(String file, int line, String reason) {
    SKIPS.computeIfAbsent(file, k -> new HashMap<>()).put(line, reason);
  }

  /** Line → reason for one file. */
  static Map<Integer, String> forFile(String file) {
    return SKIPS.getOrDefault(file, Map.of());
  }
}
