package dev.infermon.config;

import dev.infermon.config.yaml.Node;
import dev.infermon.config.yaml.Pos;
import dev.infermon.config.yaml.Problem;
import dev.infermon.config.yaml.Reader;
import dev.infermon.config.yaml.YamlTree;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Loads and validates configuration files. Every unknown key, wrong type and invalid value is
 * collected, so one attempt reports all problems. Environment overrides are an explicit step:
 * {@code ConfigLoader.create().withEnv(System.getenv()).load(path)}; tests pass a map instead.
 *
 * <p>Immutable and thread-safe.
 */
public final class ConfigLoader {
  private final Map<String, String> env;

  private ConfigLoader(Map<String, String> env) {
    this.env = Map.copyOf(env);
  }

  /** A loader without environment overrides. */
  public static ConfigLoader create() {
    return new ConfigLoader(Map.of());
  }

  /**
   * A loader that applies the {@code INFERMON_*} overrides found in {@code env} (see
   * docs/configuration.md for the list); other variables are ignored.
   */
  public ConfigLoader withEnv(Map<String, String> env) {
    return new ConfigLoader(env);
  }

  /** Loads a file; relative paths inside it are resolved against its directory. */
  public Config load(Path file) throws ConfigException {
    return loadResult(file).config();
  }

  /** Like {@link #load(Path)}, with the warnings. */
  public ConfigResult loadResult(Path file) throws ConfigException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(
          file.toString(),
          List.of(new Problem(Pos.of(file.toString()), "", "cannot read file: " + e.getMessage())));
    }
    Path dir = file.toAbsolutePath().getParent();
    return read(text, file.toString(), new Reader(dir));
  }

  /** Parses YAML text; {@code sourceName} names it in messages. Relative paths stay as written. */
  public Config parse(String yaml, String sourceName) throws ConfigException {
    return parseResult(yaml, sourceName).config();
  }

  /** Like {@link #parse(String, String)}, with the warnings. */
  public ConfigResult parseResult(String yaml, String sourceName) throws ConfigException {
    return read(yaml, sourceName, new Reader(null));
  }

  private ConfigResult read(String yaml, String source, Reader reader) throws ConfigException {
    Node root = YamlTree.parse(yaml, source, reader);
    if (!reader.errors().isEmpty()) {
      throw new ConfigException(source, reader.errors());
    }
    root = EnvOverrides.apply(root, env);
    Config config = ConfigMapping.map(root, reader);
    if (!reader.errors().isEmpty()) {
      throw new ConfigException(source, reader.errors());
    }
    return new ConfigResult(config, reader.warnings());
  }
}
