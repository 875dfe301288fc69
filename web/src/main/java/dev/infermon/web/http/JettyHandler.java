package dev.infermon.web.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.infermon.web.auth.Authenticator;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts Jetty to {@link Route}s: builds the {@link Exchange}, checks authentication, dispatches,
 * counts the request, and writes the response. Handlers block (a query runs on the request thread),
 * which is what Jetty's default blocking invocation type expects.
 *
 * <p>Thread-safe; one instance serves every request.
 */
public final class JettyHandler extends Handler.Abstract {
  private static final Logger log = LoggerFactory.getLogger(JettyHandler.class);
  private static final JsonFactory JSON = new JsonFactory();

  /** Open without credentials, so that Kubernetes probes need none; they reveal nothing. */
  private static final Set<String> OPEN_PATHS = Set.of("/-/healthy", "/-/ready");

  private final Router router;
  // Replaced on a configuration reload (reconfigure): read once per request.
  private volatile Authenticator auth;
  private volatile long maxBodyBytes;
  private final Counter requests;
  private final Histogram duration;
  private final Map<String, String> headers;

  /**
   * @param headers added to every response (a web configuration file's {@code
   *     http_server_config.headers}); they win over a handler's own header of the same name
   */
  public JettyHandler(
      Router router,
      Authenticator auth,
      long maxBodyBytes,
      PrometheusRegistry registry,
      Map<String, String> headers) {
    this.router = router;
    this.headers = Map.copyOf(headers);
    this.auth = auth;
    this.maxBodyBytes = maxBodyBytes;
    this.requests =
        Counter.builder()
            .withoutExemplars()
            .name("infermon_http_requests_total")
            .help("HTTP requests served, by handler and status code.")
            .labelNames("handler", "code")
            .register(registry);
    this.duration =
        Histogram.builder()
            .withoutExemplars()
            .name("infermon_http_request_duration_seconds")
            .help("Time to serve HTTP requests, by handler.")
            .labelNames("handler")
            .classicOnly()
            .classicUpperBounds(0.005, 0.025, 0.1, 0.25, 1, 2.5, 10, 30, 60, 120)
            .register(registry);
  }

  private static String crossSite(Exchange ex) {
    return CrossSiteGuard.refusal(ex.header("Sec-Fetch-Site"), ex.header("Origin"), ex.origin());
  }

  /** Prometheus's error envelope with type {@code internal}, for a failure no handler caught. */
  static byte[] internalError(Throwable t) {
    String message =
        t instanceof StackOverflowError
            ? "the request exhausted its thread's stack"
            : t.getMessage() == null ? t.getClass().getName() : t.getMessage();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeStringField("status", "error");
      g.writeStringField("errorType", "internal");
      g.writeStringField("error", message);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toByteArray();
  }

  /**
   * Who may call from the next request on (a removed token fails at once), and the largest request
   * body; requests already past the check are not affected.
   */
  public void reconfigure(Authenticator auth, long maxBodyBytes) {
    this.auth = auth;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) {
    long start = System.nanoTime();
    Authenticator auth = this.auth;
    Exchange ex = new Exchange(request, maxBodyBytes);
    Router.Match match = router.match(ex);
    if (!OPEN_PATHS.contains(ex.path()) && !auth.allows(ex.header("Authorization"))) {
      if (auth.offersBasic()) {
        ex.responseHeader("WWW-Authenticate", "Basic realm=\"infermon\"");
      }
      ex.respondText(401, "Unauthorized\n");
    } else if (match.changesState() && crossSite(ex) != null) {
      ex.respondText(403, crossSite(ex) + "\n");
    } else {
      try {
        match.route().handle(ex);
      } catch (BodyTooLargeException e) {
        ex.respondText(413, e.getMessage() + "\n");
      } catch (Throwable t) {
        // Errors too (a stack overflow is one): never Jetty's HTML page, the process goes on.
        if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
          throw (Error) t;
        }
        log.error("{} {} failed", ex.method(), ex.path(), t);
        ex.respond(500, "application/json", internalError(t));
      }
    }
    response.setStatus(ex.status());
    response.getHeaders().put("Content-Type", ex.contentType());
    for (Map.Entry<String, String> h : ex.responseHeaders().entrySet()) {
      response.getHeaders().put(h.getKey(), h.getValue());
    }
    for (Map.Entry<String, String> h : headers.entrySet()) {
      response.getHeaders().put(h.getKey(), h.getValue());
    }
    byte[] body = ex.responseBody();
    boolean head = ex.method().equals("HEAD");
    response.write(true, head ? ByteBuffer.allocate(0) : ByteBuffer.wrap(body), callback);
    requests.labelValues(match.handler(), Integer.toString(ex.status())).inc();
    duration.labelValues(match.handler()).observe((System.nanoTime() - start) / 1e9);
    return true;
  }
}
