package dev.infermon.scrape;

/** Reason phrases for the status codes a scrape error shows, as Go's {@code http.StatusText}. */
final class Statuses {
  private Statuses() {}

  static String reason(int code) {
    switch (code) {
      case 301:
        return "Moved Permanently";
      case 302:
        return "Found";
      case 400:
        return "Bad Request";
      case 401:
        return "Unauthorized";
      case 403:
        return "Forbidden";
      case 404:
        return "Not Found";
      case 405:
        return "Method Not Allowed";
      case 406:
        return "Not Acceptable";
      case 429:
        return "Too Many Requests";
      case 500:
        return "Internal Server Error";
      case 502:
        return "Bad Gateway";
      case 503:
        return "Service Unavailable";
      case 504:
        return "Gateway Timeout";
      default:
        return "";
    }
  }
}
