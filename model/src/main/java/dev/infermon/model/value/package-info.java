/** Sample values and the special NaN that marks a series as stale. */
package dev.infermon.model.value;
