/**
 * The web test kit, shipped in the web test-jar for the server's tests: a real self-signed
 * certificate as PEM files ({@link dev.infermon.web.testing.SelfSignedPem}).
 */
package dev.infermon.web.testing;
