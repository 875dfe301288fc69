/**
 * The web UI's server side: serves the page shell, the UI's ES modules and stylesheet, and the
 * vendored uPlot. The UI itself is plain JavaScript under {@code resources/dev/infermon/web/ui/};
 * it reads only the HTTP API (docs/ui.md).
 */
package dev.infermon.web.ui;
