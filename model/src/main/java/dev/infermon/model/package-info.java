/**
 * Value types shared by every infermon module: label sets, matchers, relabeling, metric metadata,
 * sample values and Go-compatible text formatting. This module has no dependencies; everything here
 * is immutable or stateless, and thread-safe.
 */
package dev.infermon.model;
