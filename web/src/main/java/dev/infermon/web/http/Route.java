package dev.infermon.web.http;

import java.io.IOException;

/** Serves one endpoint. Called on a server thread; may block (a query runs here). */
@FunctionalInterface
public interface Route {
  void handle(Exchange exchange) throws IOException, BodyTooLargeException;
}
