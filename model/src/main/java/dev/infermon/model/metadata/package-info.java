/** Per-family metadata: type, help and unit, as exposed by a target. */
package dev.infermon.model.metadata;
