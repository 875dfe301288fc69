/** Text helpers that make infermon's messages read like Prometheus's (Go's quoting). */
package dev.infermon.model.text;
