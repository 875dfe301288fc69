package dev.infermon.config.yaml;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.infermon.config.value.ByteSize;
import dev.infermon.config.value.PromDuration;
import dev.infermon.config.value.Secret;
import dev.infermon.config.value.Url;
import dev.infermon.model.labels.Labels;
import dev.infermon.model.relabel.RelabelConfig;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Prints configuration records as YAML in the file's own key names, walking record components
 * (snake_case of the component name unless {@link YamlKey} says otherwise). Empty strings, empty
 * collections and absent optionals are left out, like Go's {@code omitempty}. With {@code redact}
 * every {@link Secret} prints as {@code <secret>} and URL passwords as {@code xxxxx}. Stateless.
 */
public final class YamlPrinter {
  private static final YAMLMapper MAPPER =
      new YAMLMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
              .build());

  private YamlPrinter() {}

  /** The YAML form of a configuration record. */
  public static String print(Record config, boolean redact) {
    try {
      return MAPPER.writeValueAsString(value(config, redact));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot print configuration", e);
    }
  }

  /** The printable form of a value, or null to leave it out. */
  private static Object value(Object v, boolean redact) {
    if (v == null) {
      return null;
    }
    if (v instanceof String) {
      return ((String) v).isEmpty() ? null : v;
    }
    if (v instanceof Boolean || v instanceof Number) {
      return v;
    }
    if (v instanceof Secret) {
      Secret s = (Secret) v;
      return !s.isSet() ? null : redact ? Secret.REDACTED : s.reveal();
    }
    if (v instanceof Duration) {
      return PromDuration.format((Duration) v);
    }
    if (v instanceof ByteSize) {
      return ((ByteSize) v).format();
    }
    if (v instanceof Url) {
      return redact ? ((Url) v).redacted() : ((Url) v).uri().toString();
    }
    if (v instanceof Optional) {
      return value(((Optional<?>) v).orElse(null), redact);
    }
    if (v instanceof Labels) {
      Map<String, Object> m = new LinkedHashMap<>(((Labels) v).toMap());
      return m.isEmpty() ? null : m;
    }
    if (v instanceof RelabelConfig) {
      return relabel((RelabelConfig) v);
    }
    if (v instanceof Enum) {
      return enumName((Enum<?>) v);
    }
    if (v instanceof Record) {
      Map<String, Object> m = record((Record) v, redact);
      return m.isEmpty() ? null : m;
    }
    if (v instanceof Collection) {
      List<Object> out = new ArrayList<>();
      for (Object item : (Collection<?>) v) {
        Object p = value(item, redact);
        out.add(p == null ? "" : p);
      }
      return out.isEmpty() ? null : out;
    }
    if (v instanceof Map) {
      Map<String, Object> out = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
        Object p = value(e.getValue(), redact);
        out.put(String.valueOf(e.getKey()), p == null ? "" : p);
      }
      return out.isEmpty() ? null : out;
    }
    return v.toString();
  }

  private static Map<String, Object> record(Record r, boolean redact) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (RecordComponent c : r.getClass().getRecordComponents()) {
      YamlKey key = c.getAnnotation(YamlKey.class);
      if (key != null && key.skip()) {
        continue;
      }
      Object raw;
      try {
        raw = c.getAccessor().invoke(r);
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read " + c, e);
      }
      if (key != null && key.inline()) {
        if (raw instanceof Record) {
          out.putAll(record((Record) raw, redact));
        }
        continue;
      }
      Object p = value(raw, redact);
      if (p != null && redact && key != null && key.secret()) {
        p = Secret.REDACTED;
      }
      if (p != null) {
        out.put(key != null && !key.value().isEmpty() ? key.value() : snake(c.getName()), p);
      }
    }
    return out;
  }

  private static Map<String, Object> relabel(RelabelConfig c) {
    Map<String, Object> m = new LinkedHashMap<>();
    if (!c.sourceLabels().isEmpty()) {
      m.put("source_labels", c.sourceLabels());
    }
    if (!c.separator().equals(RelabelConfig.DEFAULT_SEPARATOR)) {
      m.put("separator", c.separator());
    }
    if (!c.regex().source().equals("(.*)")) {
      m.put("regex", c.regex().source());
    }
    if (c.modulus() != 0) {
      m.put("modulus", Long.toUnsignedString(c.modulus()));
    }
    if (!c.targetLabel().isEmpty()) {
      m.put("target_label", c.targetLabel());
    }
    if (!c.replacement().equals(RelabelConfig.DEFAULT_REPLACEMENT)) {
      m.put("replacement", c.replacement());
    }
    m.put("action", c.action().yamlName());
    return m;
  }

  private static String enumName(Enum<?> e) {
    try {
      Method m = e.getClass().getMethod("yamlName");
      return String.valueOf(m.invoke(e));
    } catch (ReflectiveOperationException ex) {
      return e.name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** {@code scrapeInterval} to {@code scrape_interval}; digits stay with their word. */
  static String snake(String camel) {
    StringBuilder sb = new StringBuilder(camel.length() + 8);
    for (int i = 0; i < camel.length(); i++) {
      char c = camel.charAt(i);
      if (Character.isUpperCase(c)) {
        sb.append('_').append(Character.toLowerCase(c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
