/**
 * One lint run: inputs (rule files, dashboards, expressions) checked against one reference, with
 * the findings sorted by position. Stateless and thread-safe.
 */
package dev.infermon.lint.run;
