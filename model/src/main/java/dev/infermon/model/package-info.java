/**
 * Value types shared by every infermon module: label sets, matchers, relabeling, metric metadata,
 * sample values, Go-compatible text formatting and "did you mean", and a primitive set. This module
 * has no dependencies; everything here is immutable or stateless, and thread-safe, except {@link
 * dev.infermon.model.util.LongSet}, a mutable collection for one thread.
 */
package dev.infermon.model;
