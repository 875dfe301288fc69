package dev.infermon.config.http;

import dev.infermon.config.scrape.Authorization;
import dev.infermon.config.scrape.BasicAuth;
import dev.infermon.config.scrape.HttpClientConfig;
import dev.infermon.config.scrape.HttpHeader;
import dev.infermon.config.value.Secret;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The headers an HTTP client config adds to each request (scrapes, remote write, remote queries):
 * {@code Authorization} from {@code basic_auth} or {@code authorization} (bearer token), and {@code
 * http_headers}. Credential files are read at each request, as Prometheus does, so rotated tokens
 * take effect without a reload. Secrets only ever reach the request; {@link #toString()} shows
 * none.
 *
 * <p>Threading: thread-safe (immutable); {@link #get} reads files on the calling thread and throws
 * {@link UncheckedIOException} when one cannot be read.
 */
public final class RequestAuth implements Supplier<Map<String, String>> {
  private final HttpClientConfig http;

  public RequestAuth(HttpClientConfig http) {
    this.http = http;
  }

  @Override
  public Map<String, String> get() {
    Map<String, String> h = new LinkedHashMap<>();
    for (Map.Entry<String, HttpHeader> e : http.httpHeaders().entrySet()) {
      HttpHeader v = e.getValue();
      if (!v.values().isEmpty()) {
        h.put(e.getKey(), v.values().get(0));
      } else if (!v.secrets().isEmpty()) {
        h.put(e.getKey(), v.secrets().get(0).reveal());
      } else if (!v.files().isEmpty()) {
        h.put(e.getKey(), read(v.files().get(0)).trim());
      }
    }
    if (http.basicAuth().isPresent()) {
      BasicAuth b = http.basicAuth().get();
      String user = b.usernameFile().isEmpty() ? b.username() : read(b.usernameFile()).trim();
      String pass = value(b.password(), b.passwordFile());
      h.put(
          "Authorization",
          "Basic "
              + Base64.getEncoder()
                  .encodeToString((user + ":" + pass).getBytes(StandardCharsets.UTF_8)));
    } else if (http.authorization().isPresent()) {
      Authorization a = http.authorization().get();
      String cred = value(a.credentials(), a.credentialsFile());
      String type = a.type().isEmpty() ? Authorization.BEARER : a.type();
      if (!cred.isEmpty()) {
        h.put("Authorization", type + " " + cred);
      }
    }
    return h;
  }

  private static String value(Secret inline, String file) {
    if (inline.isSet()) {
      return inline.reveal();
    }
    return file.isEmpty() ? "" : read(file).trim();
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read credentials file " + file, e);
    }
  }

  @Override
  public String toString() {
    return "RequestAuth[<secret>]";
  }
}
