package dev.infermon.rules.template;

import dev.infermon.model.text.GoQuote;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The functions templates may call: Go's builtins ({@code and}, {@code or}, {@code eq}, {@code
 * printf}, ...) and Prometheus's ({@code template/template.go}: {@code query}, {@code humanize},
 * {@code humanizeDuration}, ...). Argument conversions and messages are Go's. Stateless.
 */
final class Funcs {
  private Funcs() {}

  /** A function body; a thrown exception's message becomes {@code error calling NAME: ...}. */
  interface Body {
    Object call(List<Object> args, TemplateContext ctx) throws Exception;
  }

  /** Arity (max -1 for variadic) and body. */
  record Fn(int min, int max, Body body) {}

  /** An argument of the wrong type: Go reports it without "error calling". */
  static final class ArgTypeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ArgTypeException(String message) {
      super(message);
    }
  }

  /** Evaluated by the executor itself, lazily. */
  static final Set<String> SHORT_CIRCUIT = Set.of("and", "or");

  static final Map<String, Fn> ALL = build();

  static Set<String> names() {
    return ALL.keySet();
  }

  private static Map<String, Fn> build() {
    Map<String, Fn> m = new LinkedHashMap<>();
    m.put("and", new Fn(1, -1, (a, c) -> null));
    m.put("or", new Fn(1, -1, (a, c) -> null));
    m.put("not", new Fn(1, 1, (a, c) -> !truth(a.get(0))));
    m.put("eq", new Fn(1, -1, (a, c) -> eq(a)));
    m.put("ne", new Fn(2, 2, (a, c) -> !equal(a.get(0), a.get(1))));
    m.put("lt", new Fn(2, 2, (a, c) -> compare(a.get(0), a.get(1)) < 0));
    m.put("le", new Fn(2, 2, (a, c) -> compare(a.get(0), a.get(1)) <= 0));
    m.put("gt", new Fn(2, 2, (a, c) -> compare(a.get(0), a.get(1)) > 0));
    m.put("ge", new Fn(2, 2, (a, c) -> compare(a.get(0), a.get(1)) >= 0));
    m.put("len", new Fn(1, 1, (a, c) -> len(a.get(0))));
    m.put("index", new Fn(1, -1, (a, c) -> index(a)));
    m.put("print", new Fn(0, -1, (a, c) -> GoFormat.sprintAll(a)));
    m.put("println", new Fn(0, -1, (a, c) -> println(a)));
    m.put(
        "printf", new Fn(1, -1, (a, c) -> GoFormat.sprintf(str(a.get(0)), a.subList(1, a.size()))));
    m.put("html", new Fn(0, -1, (a, c) -> html(GoFormat.sprintAll(a))));
    m.put("urlquery", new Fn(0, -1, (a, c) -> queryEscape(GoFormat.sprintAll(a))));

    m.put("query", new Fn(1, 1, (a, c) -> new ArrayList<>(c.query(str(a.get(0))))));
    m.put("first", new Fn(1, 1, (a, c) -> first(a.get(0))));
    m.put(
        "label", new Fn(2, 2, (a, c) -> sample(a.get(1)).labels().getOrDefault(str(a.get(0)), "")));
    m.put("value", new Fn(1, 1, (a, c) -> sample(a.get(0)).value()));
    m.put(
        "strvalue",
        new Fn(1, 1, (a, c) -> sample(a.get(0)).labels().getOrDefault("__value__", "")));
    m.put("args", new Fn(0, -1, (a, c) -> argsMap(a)));
    m.put(
        "reReplaceAll",
        new Fn(3, 3, (a, c) -> reReplaceAll(str(a.get(0)), str(a.get(1)), str(a.get(2)))));
    m.put("match", new Fn(2, 2, (a, c) -> regex(str(a.get(0))).matcher(str(a.get(1))).find()));
    m.put("safeHtml", new Fn(1, 1, (a, c) -> str(a.get(0))));
    m.put("title", new Fn(1, 1, (a, c) -> title(str(a.get(0)))));
    m.put("toUpper", new Fn(1, 1, (a, c) -> str(a.get(0)).toUpperCase(Locale.ROOT)));
    m.put("toLower", new Fn(1, 1, (a, c) -> str(a.get(0)).toLowerCase(Locale.ROOT)));
    m.put("graphLink", new Fn(1, 1, (a, c) -> link(str(a.get(0)), 0)));
    m.put("tableLink", new Fn(1, 1, (a, c) -> link(str(a.get(0)), 1)));
    m.put("sortByLabel", new Fn(2, 2, (a, c) -> sortByLabel(str(a.get(0)), a.get(1))));
    m.put("humanize", new Fn(1, 1, (a, c) -> Humanize.humanize(toFloat(a.get(0)))));
    m.put("humanize1024", new Fn(1, 1, (a, c) -> Humanize.humanize1024(toFloat(a.get(0)))));
    m.put("humanizeDuration", new Fn(1, 1, (a, c) -> Humanize.duration(toFloat(a.get(0)))));
    m.put("humanizePercentage", new Fn(1, 1, (a, c) -> Humanize.percentage(toFloat(a.get(0)))));
    m.put("humanizeTimestamp", new Fn(1, 1, (a, c) -> Humanize.timestamp(toFloat(a.get(0)))));
    m.put("pathPrefix", new Fn(0, 0, (a, c) -> pathPrefix(c.externalUrl())));
    m.put("externalURL", new Fn(0, 0, (a, c) -> c.externalUrl()));
    m.put("parseDuration", new Fn(1, 1, (a, c) -> parseDuration(str(a.get(0)))));
    m.put("stripPort", new Fn(1, 1, (a, c) -> stripPort(str(a.get(0)))));
    m.put("stripDomain", new Fn(1, 1, (a, c) -> stripDomain(str(a.get(0)))));
    return Collections.unmodifiableMap(m);
  }

  static String str(Object o) {
    if (o instanceof String) {
      return (String) o;
    }
    throw new ArgTypeException(
        "wrong type for value; expected string; got " + GoFormat.typeName(o));
  }

  private static QuerySample sample(Object o) {
    if (o instanceof QuerySample) {
      return (QuerySample) o;
    }
    throw new ArgTypeException(
        "wrong type for value; expected *template.sample; got " + GoFormat.typeName(o));
  }

  /** Go's truth: false, 0, nil and empty strings, maps and lists are false. */
  static boolean truth(Object v) {
    if (v == null) {
      return false;
    }
    if (v instanceof Boolean) {
      return (Boolean) v;
    }
    if (v instanceof Long) {
      return (Long) v != 0;
    }
    if (v instanceof Double) {
      return (Double) v != 0;
    }
    if (v instanceof String) {
      return !((String) v).isEmpty();
    }
    if (v instanceof Map) {
      return !((Map<?, ?>) v).isEmpty();
    }
    if (v instanceof List) {
      return !((List<?>) v).isEmpty();
    }
    return true;
  }

  /** Go's {@code toFloat}: numbers and numeric strings. */
  static double toFloat(Object o) {
    if (o instanceof Double) {
      return (Double) o;
    }
    if (o instanceof Long) {
      return (Long) o;
    }
    if (o instanceof String) {
      return parseFloat((String) o);
    }
    throw new IllegalArgumentException("can't convert " + GoFormat.typeName(o) + " to float");
  }

  /** {@code strconv.ParseFloat(s, 64)}. */
  static double parseFloat(String s) {
    String body = s.startsWith("+") || s.startsWith("-") ? s.substring(1) : s;
    String lower = body.toLowerCase(Locale.ROOT);
    boolean neg = s.startsWith("-");
    if (lower.equals("inf") || lower.equals("infinity")) {
      return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (lower.equals("nan")) {
      return Double.NaN;
    }
    boolean ok = !body.isEmpty();
    for (int k = 0; k < body.length() && ok; k++) {
      char c = body.charAt(k);
      ok = Character.isDigit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    }
    if (ok) {
      try {
        return Double.parseDouble(s);
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        "strconv.ParseFloat: parsing " + GoQuote.quote(s) + ": invalid syntax");
  }

  private static boolean eq(List<Object> a) {
    for (int k = 1; k < a.size(); k++) {
      if (equal(a.get(0), a.get(k))) {
        return true;
      }
    }
    if (a.size() == 1) {
      throw new IllegalArgumentException("missing argument for comparison");
    }
    return false;
  }

  private static boolean equal(Object x, Object y) {
    if (x == null || y == null) {
      return x == y;
    }
    if (x instanceof Map || x instanceof List || y instanceof Map || y instanceof List) {
      throw new IllegalArgumentException("invalid type for comparison");
    }
    if (x.getClass() != y.getClass()) {
      throw new IllegalArgumentException("incompatible types for comparison");
    }
    return x.equals(y) && !(x instanceof Double && ((Double) x).isNaN());
  }

  private static int compare(Object x, Object y) {
    if (x instanceof Long && y instanceof Long) {
      return Long.compare((Long) x, (Long) y);
    }
    if (x instanceof Double && y instanceof Double) {
      double a = (Double) x;
      double b = (Double) y;
      return a < b ? -1 : a > b ? 1 : a == b ? 0 : 2;
    }
    if (x instanceof String && y instanceof String) {
      return Integer.signum(((String) x).compareTo((String) y));
    }
    boolean basic = (x instanceof Long || x instanceof Double || x instanceof String);
    boolean basicY = (y instanceof Long || y instanceof Double || y instanceof String);
    if (basic && basicY) {
      throw new IllegalArgumentException("incompatible types for comparison");
    }
    throw new IllegalArgumentException("invalid type for comparison");
  }

  private static long len(Object o) {
    if (o instanceof String) {
      return ((String) o).getBytes(StandardCharsets.UTF_8).length;
    }
    if (o instanceof List) {
      return ((List<?>) o).size();
    }
    if (o instanceof Map) {
      return ((Map<?, ?>) o).size();
    }
    throw new IllegalArgumentException("len of type " + GoFormat.typeName(o));
  }

  private static Object index(List<Object> a) {
    Object item = a.get(0);
    for (int k = 1; k < a.size(); k++) {
      Object key = a.get(k);
      if (item instanceof Map) {
        Object v = ((Map<?, ?>) item).get(key);
        item = v == null ? "" : v;
      } else if (item instanceof List && key instanceof Long) {
        List<?> l = (List<?>) item;
        long i = (Long) key;
        if (i < 0 || i >= l.size()) {
          throw new IllegalArgumentException("index out of range: " + i);
        }
        item = l.get((int) i);
      } else {
        throw new IllegalArgumentException("can't index item of type " + GoFormat.typeName(item));
      }
    }
    return item;
  }

  private static String println(List<Object> a) {
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < a.size(); k++) {
      if (k > 0) {
        sb.append(' ');
      }
      sb.append(GoFormat.sprint(a.get(k)));
    }
    return sb.append('\n').toString();
  }

  private static String html(String s) {
    return s.replace("&", "&amp;")
        .replace("'", "&#39;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&#34;")
        .replace("\u0000", "\uFFFD");
  }

  /** Go's {@code url.QueryEscape}. */
  static String queryEscape(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("*", "%2A").replace("%7E", "~");
  }

  private static QuerySample first(Object o) {
    if (!(o instanceof List)) {
      throw new ArgTypeException(
          "wrong type for value; expected template.queryResult; got " + GoFormat.typeName(o));
    }
    List<?> l = (List<?>) o;
    if (l.isEmpty()) {
      throw new IllegalArgumentException("first() called on vector with no elements");
    }
    return sample(l.get(0));
  }

  private static Map<String, Object> argsMap(List<Object> a) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (int k = 0; k < a.size(); k++) {
      m.put("arg" + k, a.get(k));
    }
    return m;
  }

  private static Pattern regex(String pattern) {
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException(
          "error parsing regexp: " + e.getDescription() + ": `" + pattern + "`");
    }
  }

  /**
   * Go's {@code ReplaceAllString}: {@code $1}, {@code ${1}}, {@code $name}; unknown groups empty.
   */
  private static String reReplaceAll(String pattern, String repl, String text) {
    Matcher m = regex(pattern).matcher(text);
    StringBuilder out = new StringBuilder();
    int last = 0;
    while (m.find()) {
      out.append(text, last, m.start());
      expand(m, repl, out);
      last = m.end();
      if (m.end() == m.start() && m.end() < text.length()) {
        // Go advances past an empty match; Matcher.find() does the same.
      }
    }
    out.append(text.substring(last));
    return out.toString();
  }

  private static void expand(Matcher m, String repl, StringBuilder out) {
    for (int k = 0; k < repl.length(); k++) {
      char c = repl.charAt(k);
      if (c != '$' || k + 1 >= repl.length()) {
        out.append(c);
        continue;
      }
      char n = repl.charAt(k + 1);
      if (n == '$') {
        out.append('$');
        k++;
        continue;
      }
      String name;
      int end;
      if (n == '{') {
        int close = repl.indexOf('}', k + 2);
        if (close < 0) {
          out.append(c);
          continue;
        }
        name = repl.substring(k + 2, close);
        end = close;
      } else {
        int j = k + 1;
        while (j < repl.length()
            && (Character.isLetterOrDigit(repl.charAt(j)) || repl.charAt(j) == '_')) {
          j++;
        }
        if (j == k + 1) {
          out.append(c);
          continue;
        }
        name = repl.substring(k + 1, j);
        end = j - 1;
      }
      out.append(group(m, name));
      k = end;
    }
  }

  private static String group(Matcher m, String name) {
    String g = null;
    try {
      if (name.chars().allMatch(Character::isDigit)) {
        int i = Integer.parseInt(name);
        g = i <= m.groupCount() ? m.group(i) : null;
      } else {
        g = m.group(name);
      }
    } catch (IllegalArgumentException e) {
      g = null;
    }
    return g == null ? "" : g;
  }

  /** Go's {@code strings.Title}: upper-cases the first letter of each word. */
  static String title(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    int prev = ' ';
    for (int k = 0; k < s.length(); ) {
      int cp = s.codePointAt(k);
      sb.appendCodePoint(isSeparator(prev) ? Character.toTitleCase(cp) : cp);
      prev = cp;
      k += Character.charCount(cp);
    }
    return sb.toString();
  }

  private static boolean isSeparator(int r) {
    if (r <= 0x7f) {
      return !(Character.isLetterOrDigit(r) || r == '_');
    }
    if (Character.isLetterOrDigit(r)) {
      return false;
    }
    return Character.isWhitespace(r);
  }

  private static String link(String expr, int tab) {
    return "/graph?g0.expr=" + queryEscape(expr) + "&g0.tab=" + tab;
  }

  private static List<Object> sortByLabel(String label, Object o) {
    if (!(o instanceof List)) {
      throw new ArgTypeException(
          "wrong type for value; expected template.queryResult; got " + GoFormat.typeName(o));
    }
    List<Object> copy = new ArrayList<>((List<?>) o);
    copy.sort(Comparator.comparing(x -> sample(x).labels().getOrDefault(label, "")));
    return copy;
  }

  private static String pathPrefix(String externalUrl) {
    try {
      String path = java.net.URI.create(externalUrl).getRawPath();
      return path == null ? "" : path;
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  private static double parseDuration(String s) {
    Duration d = dev.infermon.config.value.PromDuration.parse(s);
    return d.toNanos() / 1e9;
  }

  /** Go's {@code net.SplitHostPort}; null when it fails. */
  private static String[] splitHostPort(String hp) {
    int colon = hp.lastIndexOf(':');
    if (colon < 0) {
      return null;
    }
    String host;
    if (hp.startsWith("[")) {
      int close = hp.indexOf(']');
      if (close < 0 || close + 1 != colon) {
        return null;
      }
      host = hp.substring(1, close);
    } else {
      host = hp.substring(0, colon);
      if (host.indexOf(':') >= 0) {
        return null;
      }
    }
    if (hp.indexOf('[', 1) >= 0 || hp.indexOf(']', hp.indexOf(']') + 1) >= 0) {
      return null;
    }
    return new String[] {host, hp.substring(colon + 1)};
  }

  private static String stripPort(String hp) {
    String[] parts = splitHostPort(hp);
    return parts == null ? hp : parts[0];
  }

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private static String stripDomain(String hp) {
    String[] parts = splitHostPort(hp);
    String host = parts == null ? hp : parts[0];
    String port = parts == null ? "" : parts[1];
    if (IPV4.matcher(host).matches() || host.contains(":")) {
      return hp;
    }
    host = host.split("\\.", -1)[0];
    if (!port.isEmpty()) {
      return host + ":" + port;
    }
    return host;
  }

  /** Go's {@code time.Time.String()} of a UTC time, fraction without trailing zeros. */
  static String goTime(Instant t) {
    String base =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC).format(t);
    int nanos = t.getNano();
    String frac = "";
    if (nanos != 0) {
      frac = String.format(Locale.ROOT, ".%09d", nanos).replaceAll("0+$", "");
    }
    return base + frac + " +0000 UTC";
  }
}
