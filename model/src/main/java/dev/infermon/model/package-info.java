/**
 * Value types shared by every infermon module: label sets, matchers, metric metadata and sample
 * values. This module has no dependencies; everything here is immutable and thread-safe.
 */
package dev.infermon.model;
