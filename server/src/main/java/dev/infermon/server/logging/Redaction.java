package dev.infermon.server.logging;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Masks credentials in log text: {@code Authorization}, {@code Proxy-Authorization}, {@code Cookie}
 * and {@code Set-Cookie} header values, {@code Bearer}/{@code Basic} credentials wherever they
 * appear, the password of URL user information ({@code http://user:pass@host}), and {@code
 * password=}/{@code token=}-style parameters. The last line of defence behind {@link
 * WireLogFilter}: infermon's own messages never carry these on purpose. Stateless and thread-safe.
 */
public final class Redaction {
  /** What replaces a secret. */
  public static final String MASK = "<secret>";

  private static final Pattern HEADER =
      Pattern.compile(
          "(?i)\\b((?:proxy-)?authorization|(?:set-)?cookie)(\\s*[:=]\\s*\\[?)([^\\r\\n\\])]+)");

  /**
   * A scheme and a credential after it; the credential has six characters or more and is not a
   * plain lowercase word, so "basic authentication" stays as it is.
   */
  private static final Pattern SCHEME =
      Pattern.compile(
          "(?i)\\b(bearer|basic|digest|negotiate)(\\s+)"
              + "(?-i:(?![a-z]+\\b)[A-Za-z0-9._~+/=:-]{6,})");

  private static final Pattern USERINFO =
      Pattern.compile("([A-Za-z][A-Za-z0-9+.-]*://[^/@\\s:]*):[^/@\\s]*@");

  private static final Pattern PARAMETER =
      Pattern.compile(
          "(?i)\\b(password|passwd|access_token|api_key|apikey|token|secret)=([^&\\s\"',;]+)");

  private Redaction() {}

  /** {@code text} with every credential it shows replaced by {@link #MASK}. */
  public static String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    String out = replace(HEADER, text, m -> m.group(1) + m.group(2) + MASK);
    out = replace(SCHEME, out, m -> m.group(1) + m.group(2) + MASK);
    out = replace(USERINFO, out, m -> m.group(1) + ":" + MASK + "@");
    return replace(PARAMETER, out, m -> m.group(1) + "=" + MASK);
  }

  private static String replace(
      Pattern p, String text, java.util.function.Function<Matcher, String> with) {
    Matcher m = p.matcher(text);
    if (!m.find()) {
      return text;
    }
    StringBuilder sb = new StringBuilder(text.length());
    do {
      m.appendReplacement(sb, Matcher.quoteReplacement(with.apply(m)));
    } while (m.find());
    m.appendTail(sb);
    return sb.toString();
  }
}
