/**
 * Browser tests and the browser benchmark of the web UI: headless Chromium (Selenium) over a
 * running infermon that scrapes the simulator on 127.0.0.1. Test code only.
 */
package dev.infermon.itui;
