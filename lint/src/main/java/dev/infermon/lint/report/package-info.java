/**
 * Lint results as text (compiler style), JSON (the CLI's {@code -o json} and the API's {@code
 * data}) and SARIF 2.1.0 (code-scanning UIs). Stateless.
 */
package dev.infermon.lint.report;
