package dev.infermon.web.http;

import java.util.Locale;

/**
 * Refuses browser requests from other sites to the routes that change state ({@code /-/reload},
 * remote write, ...), even with authentication off: a page elsewhere must not reload infermon's
 * configuration or write samples through a visitor's browser (cross-site request forgery). A
 * browser tells where a request comes from: {@code Sec-Fetch-Site} (every current browser), else
 * {@code Origin} (always sent on a cross-site POST). A request with neither comes from no browser
 * (curl, Prometheus, a remote-write sender) and passes, as does a same-origin one. Stateless.
 */
final class CrossSiteGuard {
  private CrossSiteGuard() {}

  /**
   * Why a request must be refused, or null when it may pass.
   *
   * @param secFetchSite the {@code Sec-Fetch-Site} header, or null
   * @param origin the {@code Origin} header, or null
   * @param ownOrigin this server's origin as the request reached it, {@code scheme://host[:port]}
   */
  static String refusal(String secFetchSite, String origin, String ownOrigin) {
    if (secFetchSite != null) {
      String site = secFetchSite.trim().toLowerCase(Locale.ROOT);
      // "none": typed into the address bar or a bookmark; "same-site" may be another host.
      if (site.equals("same-origin") || site.equals("none")) {
        return null;
      }
      return "cross-site request refused (Sec-Fetch-Site: " + secFetchSite + ")";
    }
    if (origin != null && !origin.trim().equalsIgnoreCase(ownOrigin)) {
      return "cross-site request refused (Origin: " + origin + ")";
    }
    return null;
  }
}
