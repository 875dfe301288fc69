package dev.infermon.web.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.infermon.promql.engine.EngineOptions;
import dev.infermon.web.TestServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The UI is served by infermon itself: the shell on every page path, assets, the vendored uPlot.
 */
class UiRoutesTest {
  @TempDir static Path dir;
  static TestServer server;

  @BeforeAll
  static void start() throws IOException {
    server = TestServer.start(dir, EngineOptions.DEFAULTS, o -> o);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  HttpResponse<byte[]> get(String path, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(server.uri(path));
    if (headers.length > 0) {
      b.headers(headers);
    }
    return server.client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  @ParameterizedTest(name = "{0} → {1} {2}")
  @CsvSource({
    "/,                         200, text/html",
    "/dashboard,                200, text/html",
    "/targets,                  200, text/html",
    "/alerts,                   200, text/html",
    "/explore,                  200, text/html",
    "/diagnosis,                200, text/html",
    "/engines,                  200, text/html",
    "/ui/app.js,                200, text/javascript",
    "/ui/dashboard.js,          200, text/javascript",
    "/ui/style.css,             200, text/css",
    "/ui/vendor/uPlot.esm.js,   200, text/javascript",
    "/ui/vendor/uPlot.min.css,  200, text/css",
    "/ui/missing.js,            404, text/plain",
    "/ui/App.js,                404, text/plain",
    "/ui/.app.js,               404, text/plain",
    "/ui/vendor/uPlot.cjs.js,   404, text/plain",
    "/ui/vendor/LICENSE,        404, text/plain",
    "/nowhere,                  404, text/plain",
  })
  void servesPagesAndAssets(String path, int status, String type) throws Exception {
    HttpResponse<byte[]> r = get(path);
    assertThat(r.statusCode()).isEqualTo(status);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(ct -> assertThat(ct).startsWith(type));
  }

  /**
   * Pages may not be framed and run scripts only from infermon's own origin: the shell's one inline
   * script by its hash, no inline event handlers (the browser tests in it-ui run the UI under it).
   */
  @Test
  void pagesCarryAFramingBanAndAContentSecurityPolicy() throws Exception {
    for (String page : new String[] {"/", "/dashboard", "/explore"}) {
      HttpResponse<byte[]> r = get(page);
      assertThat(r.headers().firstValue("X-Frame-Options")).hasValue("DENY");
      String csp = r.headers().firstValue("Content-Security-Policy").orElseThrow();
      assertThat(csp)
          .contains("default-src 'self'")
          .contains("frame-ancestors 'none'")
          .contains("object-src 'none'")
          .doesNotContain("'unsafe-eval'");
      String html = new String(r.body(), StandardCharsets.UTF_8);
      Matcher m = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL).matcher(html);
      assertThat(m.find()).as("the shell has its inline theme script").isTrue();
      String hash =
          Base64.getEncoder()
              .encodeToString(
                  MessageDigest.getInstance("SHA-256")
                      .digest(m.group(1).getBytes(StandardCharsets.UTF_8)));
      String scripts =
          csp.substring(csp.indexOf("script-src"), csp.indexOf(';', csp.indexOf("script-src")));
      assertThat(scripts).isEqualTo("script-src 'self' 'sha256-" + hash + "'");
    }
    assertThat(get("/ui/app.js").headers().firstValue("Content-Security-Policy")).isEmpty();
  }

  /** The UI's scripts add no inline event handler, which the policy would not run. */
  @Test
  void noInlineEventHandlers() throws Exception {
    for (String f :
        new String[] {
          "app",
          "dashboard",
          "explore",
          "alerts",
          "targets",
          "diagnosis",
          "engines",
          "chart",
          "heatmap",
          "panels",
          "podtable",
          "lint",
          "api",
          "state",
          "format"
        }) {
      String js = new String(get("/ui/" + f + ".js").body(), StandardCharsets.UTF_8);
      assertThat(js).as(f + ".js").doesNotContainPattern("<[a-z][^>]* on[a-z]+=\"");
    }
  }

  @Test
  void everyModuleTheShellImportsIsServed() throws Exception {
    String shell = new String(get("/dashboard").body(), StandardCharsets.UTF_8);
    assertThat(shell).contains("<script type=\"module\" src=\"/ui/app.js\">");
    // Follow the static imports from app.js and the pages it loads: none may be missing.
    Pattern imp = Pattern.compile("from '\\./([a-zA-Z./]+)'");
    for (String module :
        new String[] {
          "app.js",
          "dashboard.js",
          "targets.js",
          "alerts.js",
          "explore.js",
          "diagnosis.js",
          "engines.js"
        }) {
      String js = new String(get("/ui/" + module).body(), StandardCharsets.UTF_8);
      Matcher m = imp.matcher(js);
      while (m.find()) {
        if (m.group(1) != null) {
          assertThat(get("/ui/" + m.group(1)).statusCode())
              .as("%s imports %s", module, m.group(1))
              .isEqualTo(200);
        }
      }
    }
  }

  @Test
  void aDevelopmentDirectoryIsReadOnEveryRequest(@TempDir Path dev) throws Exception {
    java.nio.file.Files.writeString(dev.resolve("app.js"), "// v1");
    UiRoutes ui = new UiRoutes(UiRoutes.class.getClassLoader(), java.util.Optional.of(dev));
    assertThat(new String(ui.own("app.js").orElseThrow().body(), StandardCharsets.UTF_8))
        .isEqualTo("// v1");
    java.nio.file.Files.writeString(dev.resolve("app.js"), "// v2");
    assertThat(new String(ui.own("app.js").orElseThrow().body(), StandardCharsets.UTF_8))
        .isEqualTo("// v2");
    assertThat(ui.own("missing.js")).isEmpty();
    // uPlot still comes from the WebJar
    assertThat(ui.vendor("uPlot.esm.js")).isPresent();
  }

  @Test
  void aPathOutsideTheUiIsRefused() throws Exception {
    // Jetty refuses an encoded slash itself (400); the asset pattern would refuse it too (404).
    assertThat(get("/ui/..%2Fapi.js").statusCode()).isIn(400, 404);
    assertThat(get("/ui/vendor/..%2F..%2FLICENSE").statusCode()).isIn(400, 404);
  }

  @Test
  void gzipAndRevalidation() throws Exception {
    HttpResponse<byte[]> plain = get("/ui/vendor/uPlot.esm.js");
    HttpResponse<byte[]> zipped = get("/ui/vendor/uPlot.esm.js", "Accept-Encoding", "gzip");
    assertThat(zipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(zipped.body().length).isLessThan(plain.body().length / 2);
    try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(zipped.body()))) {
      assertThat(in.readAllBytes()).isEqualTo(plain.body());
    }
    String etag = plain.headers().firstValue("ETag").orElseThrow();
    assertThat(get("/ui/vendor/uPlot.esm.js", "If-None-Match", etag).statusCode()).isEqualTo(304);
    assertThat(get("/ui/app.js").headers().firstValue("Cache-Control")).hasValue("no-cache");
  }
}
