package dev.infermon.web.ui;

import dev.infermon.web.http.Exchange;
import dev.infermon.web.http.Router;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Serves the web UI: the page shell for every page path, the UI's own ES modules and stylesheet
 * under {@code /ui/}, and uPlot from its WebJar under {@code /ui/vendor/}. Assets are read from the
 * class path once, on first request, and kept in memory with their gzip form and an ETag; a request
 * with a matching {@code If-None-Match} gets 304. No file system access: an asset name is one path
 * segment matching a strict pattern, so a request can never leave the UI's resources.
 *
 * <p>Threading: thread-safe; the cache is a concurrent map filled idempotently.
 */
public final class UiRoutes {
  /** The client-side pages; each serves the same shell, which routes on the path. */
  public static final List<String> PAGES =
      List.of(
          "/",
          "/dashboard",
          "/targets",
          "/alerts",
          "/explore",
          "/diagnosis",
          "/engines",
          "/incident");

  static final String BASE = "dev/infermon/web/ui/";
  private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

  /** A {@code <script>} without {@code src}: its text is what the policy's hash covers. */
  private static final Pattern INLINE_SCRIPT =
      Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);

  private static final Pattern ASSET = Pattern.compile("[a-z][a-z0-9-]*\\.(js|css|svg|html)");
  private static final Map<String, String> VENDOR =
      Map.of("uPlot.esm.js", "dist/uPlot.esm.js", "uPlot.min.css", "dist/uPlot.min.css");

  /**
   * For working on the UI: a directory to serve the UI's own files from, read on every request
   * (edit, reload), instead of the class path. Vendored files still come from the WebJar.
   */
  static final String DEV_DIR_PROPERTY = "infermon.ui.dir";

  private final ClassLoader loader;
  private final Optional<Path> devDir;
  private final Map<String, Optional<Asset>> cache = new ConcurrentHashMap<>();

  /** One file ready to send. */
  record Asset(String contentType, byte[] body, byte[] gzip, String etag) {}

  UiRoutes(ClassLoader loader, Optional<Path> devDir) {
    this.loader = loader;
    this.devDir = devDir;
  }

  /** Adds the page shell, {@code /ui/<file>} and {@code /ui/vendor/<file>} to {@code router}. */
  public static void register(Router router) {
    String dev = System.getProperty(DEV_DIR_PROPERTY, "");
    UiRoutes ui =
        new UiRoutes(
            UiRoutes.class.getClassLoader(),
            dev.isEmpty() ? Optional.empty() : Optional.of(Path.of(dev)));
    for (String page : PAGES) {
      router.add(page, ex -> ui.send(ex, ui.asset(BASE + "index.html"), false), "GET");
    }
    router.add("/ui/<file>", ex -> ui.send(ex, ui.own(ex.pathParam()), false), "GET");
    router.add("/ui/vendor/<file>", ex -> ui.send(ex, ui.vendor(ex.pathParam()), true), "GET");
  }

  Optional<Asset> own(String file) {
    if (!ASSET.matcher(file).matches()) {
      return Optional.empty();
    }
    return asset(BASE + file);
  }

  Optional<Asset> vendor(String file) {
    String inJar = VENDOR.get(file);
    Optional<String> version = uplotVersion();
    if (inJar == null || version.isEmpty()) {
      return Optional.empty();
    }
    return asset("META-INF/resources/webjars/uplot/" + version.get() + "/" + inJar);
  }

  /** The uPlot version on the class path, read from the WebJar's own Maven properties. */
  Optional<String> uplotVersion() {
    try (InputStream in = loader.getResourceAsStream(UPLOT_POM)) {
      if (in == null) {
        return Optional.empty();
      }
      Properties p = new Properties();
      p.load(in);
      return Optional.ofNullable(p.getProperty("version"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  Optional<Asset> asset(String resource) {
    if (devDir.isPresent() && resource.startsWith(BASE)) {
      Path file = devDir.get().resolve(resource.substring(BASE.length()));
      try {
        byte[] body = Files.readAllBytes(file);
        return Optional.of(new Asset(contentType(resource), body, gzip(body), etag(body)));
      } catch (NoSuchFileException e) {
        return Optional.empty();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
    }
    return cache.computeIfAbsent(resource, this::load);
  }

  private Optional<Asset> load(String resource) {
    try (InputStream in = loader.getResourceAsStream(resource)) {
      if (in == null) {
        return Optional.empty();
      }
      byte[] body = in.readAllBytes();
      return Optional.of(new Asset(contentType(resource), body, gzip(body), etag(body)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read UI resource " + resource, e);
    }
  }

  private void send(Exchange ex, Optional<Asset> found, boolean immutable) {
    if (found.isEmpty()) {
      ex.respondText(404, "404 page not found\n");
      return;
    }
    Asset a = found.get();
    ex.responseHeader("ETag", a.etag());
    // Own assets change with every build of infermon, so the browser revalidates (a cheap 304);
    // the vendored library is pinned by its WebJar version.
    ex.responseHeader("Cache-Control", immutable ? "public, max-age=86400" : "no-cache");
    ex.responseHeader("X-Content-Type-Options", "nosniff");
    ex.responseHeader("Vary", "Accept-Encoding");
    if (a.contentType().startsWith("text/html")) {
      // No framing (clickjacking), and scripts only from infermon itself.
      ex.responseHeader("X-Frame-Options", "DENY");
      ex.responseHeader("Content-Security-Policy", policy(a.body()));
    }
    String ifNoneMatch = ex.header("If-None-Match");
    if (ifNoneMatch != null && ifNoneMatch.contains(a.etag())) {
      ex.respond(304, a.contentType(), new byte[0]);
      return;
    }
    String accept = ex.header("Accept-Encoding");
    if (accept != null && accept.toLowerCase(Locale.ROOT).contains("gzip")) {
      ex.responseHeader("Content-Encoding", "gzip");
      ex.respond(200, a.contentType(), a.gzip());
    } else {
      ex.respond(200, a.contentType(), a.body());
    }
  }

  /**
   * The page's Content-Security-Policy: everything from infermon's own origin, scripts only from
   * its files plus the page's own inline scripts by hash (the theme is set before first paint), no
   * inline event handlers, no plugins, no framing. Inline styles stay allowed: the UI and uPlot
   * position and colour elements with {@code style} attributes.
   */
  static String policy(byte[] html) {
    StringBuilder scripts = new StringBuilder("'self'");
    Matcher m = INLINE_SCRIPT.matcher(new String(html, StandardCharsets.UTF_8));
    while (m.find()) {
      scripts.append(" 'sha256-").append(sha256Base64(m.group(1))).append('\'');
    }
    return "default-src 'self'; script-src "
        + scripts
        + "; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self';"
        + " object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
  }

  private static String sha256Base64(String text) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return Base64.getEncoder().encodeToString(md.digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is required of every JVM", e);
    }
  }

  static String contentType(String resource) {
    String ext = resource.substring(resource.lastIndexOf('.') + 1);
    switch (ext) {
      case "html":
        return "text/html; charset=utf-8";
      case "js":
        return "text/javascript; charset=utf-8";
      case "css":
        return "text/css; charset=utf-8";
      case "svg":
        return "image/svg+xml";
      default:
        return "application/octet-stream";
    }
  }

  private static byte[] gzip(byte[] body) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(body.length / 3 + 64);
    try (GZIPOutputStream z = new GZIPOutputStream(out)) {
      z.write(body);
    }
    return out.toByteArray();
  }

  private static String etag(byte[] body) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(body);
      return "\"" + HexFormat.of().formatHex(d, 0, 12) + "\"";
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError("SHA-256 is always available", e);
    }
  }
}
