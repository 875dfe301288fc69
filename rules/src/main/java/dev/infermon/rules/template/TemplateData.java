package dev.infermon.rules.template;

/**
 * A value with named fields, as a Go struct is to a template ({@code .Labels}, {@code .Value}).
 * Implementations are immutable.
 */
public interface TemplateData {
  /** Marks a field the type does not have. */
  Object NO_SUCH_FIELD = new Object();

  /** The field's value, or {@link #NO_SUCH_FIELD}. */
  Object field(String name);

  /** The Go type name shown in error messages. */
  String typeName();
}
