package dev.infermon.rules.template;

import dev.infermon.model.text.GoQuote;
import java.util.List;

/**
 * The parse tree of a template, shaped like Go's {@code text/template/parse} nodes. {@link
 * #toString()} prints a node as Go does in error messages ({@code <humanize "one">}). Immutable.
 */
sealed interface Node
    permits Node.ListNode,
        Node.TextNode,
        Node.ActionNode,
        Node.BranchNode,
        Node.PipeNode,
        Node.CommandNode,
        Node.FieldNode,
        Node.VariableNode,
        Node.ChainNode,
        Node.IdentifierNode,
        Node.DotNode,
        Node.NilNode,
        Node.BoolNode,
        Node.NumberNode,
        Node.StringNode {
  int pos();

  record ListNode(int pos, List<Node> nodes) implements Node {
    public ListNode {
      nodes = List.copyOf(nodes);
    }
  }

  record TextNode(int pos, String text) implements Node {}

  record ActionNode(int pos, PipeNode pipe) implements Node {
    @Override
    public String toString() {
      return "{{" + pipe + "}}";
    }
  }

  /** {@code if}, {@code range} or {@code with}; {@code elseList} may be null. */
  record BranchNode(int pos, String keyword, PipeNode pipe, ListNode list, ListNode elseList)
      implements Node {}

  /** A pipeline, with the variables it declares or assigns. */
  record PipeNode(int pos, boolean isAssign, List<String> decl, List<CommandNode> cmds)
      implements Node {
    public PipeNode {
      decl = List.copyOf(decl);
      cmds = List.copyOf(cmds);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      if (!decl.isEmpty()) {
        sb.append(String.join(", ", decl)).append(isAssign ? " = " : " := ");
      }
      for (int k = 0; k < cmds.size(); k++) {
        if (k > 0) {
          sb.append(" | ");
        }
        sb.append(cmds.get(k));
      }
      return sb.toString();
    }
  }

  record CommandNode(int pos, List<Node> args) implements Node {
    public CommandNode {
      args = List.copyOf(args);
    }

    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder();
      for (int k = 0; k < args.size(); k++) {
        if (k > 0) {
          sb.append(' ');
        }
        Node a = args.get(k);
        if (a instanceof PipeNode) {
          sb.append('(').append(a).append(')');
        } else {
          sb.append(a);
        }
      }
      return sb.toString();
    }
  }

  /** {@code .a.b}: fields of dot. */
  record FieldNode(int pos, List<String> idents) implements Node {
    public FieldNode {
      idents = List.copyOf(idents);
    }

    @Override
    public String toString() {
      return "." + String.join(".", idents);
    }
  }

  /** {@code $x.a.b}: the variable's name (with {@code $}) followed by fields. */
  record VariableNode(int pos, List<String> idents) implements Node {
    public VariableNode {
      idents = List.copyOf(idents);
    }

    @Override
    public String toString() {
      return String.join(".", idents);
    }
  }

  /** {@code (pipeline).a.b}. */
  record ChainNode(int pos, Node node, List<String> fields) implements Node {
    public ChainNode {
      fields = List.copyOf(fields);
    }

    @Override
    public String toString() {
      String inner = node instanceof PipeNode ? "(" + node + ")" : node.toString();
      return inner + "." + String.join(".", fields);
    }
  }

  /** A function name. */
  record IdentifierNode(int pos, String name) implements Node {
    @Override
    public String toString() {
      return name;
    }
  }

  record DotNode(int pos) implements Node {
    @Override
    public String toString() {
      return ".";
    }
  }

  record NilNode(int pos) implements Node {
    @Override
    public String toString() {
      return "nil";
    }
  }

  record BoolNode(int pos, boolean value) implements Node {
    @Override
    public String toString() {
      return Boolean.toString(value);
    }
  }

  /** A number constant; Go makes it an int unless its text has {@code . e E p P}. */
  record NumberNode(int pos, String text, Object value) implements Node {
    @Override
    public String toString() {
      return text;
    }
  }

  record StringNode(int pos, String text) implements Node {
    @Override
    public String toString() {
      return GoQuote.quote(text);
    }
  }
}
