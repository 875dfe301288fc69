/**
 * The YAML layer of the configuration: {@link dev.infermon.config.yaml.YamlTree} reads text into a
 * {@link dev.infermon.config.yaml.Node} tree that keeps every value's position, {@link
 * dev.infermon.config.yaml.MapView} reads a mapping strictly against a {@link
 * dev.infermon.config.yaml.Section} (unknown keys are reported with the closest known one), and
 * {@link dev.infermon.config.yaml.YamlPrinter} prints records back, redacting secrets. Problems are
 * collected in a {@link dev.infermon.config.yaml.Reader}, one per read (not thread-safe);
 * everything else here is immutable or stateless.
 */
package dev.infermon.config.yaml;
