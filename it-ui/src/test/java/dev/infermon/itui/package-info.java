/**
 * Browser tests and the browser benchmark of the web UI: headless Chromium (Selenium) over a
 * running infermon that scrapes the simulator on 127.0.0.1 (the tests), or over a server holding
 * hours of a fleet's history ({@code HistoryServer}: the benchmark). Test code only.
 */
package dev.infermon.itui;
