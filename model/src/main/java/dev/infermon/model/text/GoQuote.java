package dev.infermon.model.text;

/**
 * Quotes strings as Go's {@code strconv.Quote} ({@code %q}) does for the characters Prometheus's
 * messages meet: {@code "}, {@code \\}, {@code \n}, {@code \t}, {@code \r} escaped, other control
 * characters as {@code \xNN}, everything else as is. Messages then read exactly like Prometheus's
 * (relabeling, rule templates). Stateless.
 */
public final class GoQuote {
  private GoQuote() {}

  /** {@code s} in double quotes with Go's escapes. */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\r':
          sb.append("\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            sb.append(String.format("\\x%02x", (int) c));
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }
}
