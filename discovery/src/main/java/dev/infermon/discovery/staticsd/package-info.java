/**
 * Static targets ({@code static_configs}). The package is named {@code staticsd} because {@code
 * static} is a Java keyword.
 */
package dev.infermon.discovery.staticsd;
