package dev.infermon.rules.template;

import dev.infermon.rules.template.Node.BranchNode;
import dev.infermon.rules.template.Node.CommandNode;
import dev.infermon.rules.template.Node.ListNode;
import dev.infermon.rules.template.Node.PipeNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Runs a parse tree as Go's {@code text/template} {@code exec.go} does, with {@code
 * missingkey=zero}: a missing map key is the empty string, a missing value prints {@code <no
 * value>}. One executor per expansion; not thread-safe.
 */
final class Executor {
  private static final int MAX_RANGE = 100_000;

  private final String name;
  private final String text;
  private final TemplateContext ctx;
  private final List<String> varNames = new ArrayList<>();
  private final List<Object> varValues = new ArrayList<>();
  private final StringBuilder out = new StringBuilder();
  private Node current;

  Executor(String name, String text, TemplateContext ctx) {
    this.name = name;
    this.text = text;
    this.ctx = ctx;
  }

  String run(ListNode root, Object data, List<String> names, List<Object> values) {
    push("$", data);
    for (int k = 0; k < names.size(); k++) {
      push(names.get(k), values.get(k));
    }
    walkList(data, root);
    return out.toString();
  }

  private void push(String n, Object v) {
    varNames.add(n);
    varValues.add(v);
  }

  private void popTo(int mark) {
    while (varNames.size() > mark) {
      varNames.remove(varNames.size() - 1);
      varValues.remove(varValues.size() - 1);
    }
  }

  private void setVar(String n, Object v) {
    for (int k = varNames.size() - 1; k >= 0; k--) {
      if (varNames.get(k).equals(n)) {
        varValues.set(k, v);
        return;
      }
    }
    throw error("undefined variable: " + n);
  }

  private Object getVar(String n) {
    for (int k = varNames.size() - 1; k >= 0; k--) {
      if (varNames.get(k).equals(n)) {
        return varValues.get(k);
      }
    }
    throw error("undefined variable: " + n);
  }

  private void walkList(Object dot, ListNode list) {
    for (Node n : list.nodes()) {
      walk(dot, n);
    }
  }

  private void walk(Object dot, Node node) {
    current = node;
    if (node instanceof Node.TextNode) {
      out.append(((Node.TextNode) node).text());
    } else if (node instanceof Node.ActionNode) {
      PipeNode pipe = ((Node.ActionNode) node).pipe();
      Object v = pipeline(dot, pipe);
      if (pipe.decl().isEmpty()) {
        out.append(printValue(v));
      }
    } else if (node instanceof BranchNode) {
      branch(dot, (BranchNode) node);
    } else {
      throw error("unknown node: " + node);
    }
  }

  private void branch(Object dot, BranchNode b) {
    int mark = varNames.size();
    try {
      if (b.keyword().equals("range")) {
        range(dot, b);
        return;
      }
      Object v = pipeline(dot, b.pipe());
      if (Funcs.truth(v)) {
        walkList(b.keyword().equals("with") ? v : dot, b.list());
      } else if (b.elseList() != null) {
        walkList(dot, b.elseList());
      }
    } finally {
      popTo(mark);
    }
  }

  private void range(Object dot, BranchNode b) {
    PipeNode pipe = b.pipe();
    PipeNode valuePipe = new PipeNode(pipe.pos(), false, List.of(), pipe.cmds());
    Object v = pipeline(dot, valuePipe);
    List<Object[]> items = new ArrayList<>();
    if (v instanceof List) {
      List<?> l = (List<?>) v;
      for (int k = 0; k < l.size(); k++) {
        items.add(new Object[] {(long) k, l.get(k)});
      }
    } else if (v instanceof Map) {
      for (Map.Entry<?, ?> e : new TreeMap<>((Map<?, ?>) v).entrySet()) {
        items.add(new Object[] {e.getKey(), e.getValue()});
      }
    } else if (v instanceof Long) {
      long n = (Long) v;
      if (n > MAX_RANGE) {
        throw error("range over " + n + " exceeds the limit of " + MAX_RANGE);
      }
      for (long k = 0; k < n; k++) {
        items.add(new Object[] {k, k});
      }
    } else if (v != null) {
      throw error("range can't iterate over " + GoFormat.sprint(v));
    }
    if (items.isEmpty()) {
      if (b.elseList() != null) {
        walkList(dot, b.elseList());
      }
      return;
    }
    int mark = varNames.size();
    for (Object[] item : items) {
      popTo(mark);
      List<String> decl = pipe.decl();
      if (decl.size() == 1) {
        declareOrAssign(pipe, decl.get(0), item[1]);
      } else if (decl.size() == 2) {
        declareOrAssign(pipe, decl.get(0), item[0]);
        declareOrAssign(pipe, decl.get(1), item[1]);
      }
      walkList(item[1], b.list());
    }
    popTo(mark);
  }

  private void declareOrAssign(PipeNode pipe, String n, Object v) {
    if (pipe.isAssign()) {
      setVar(n, v);
    } else {
      push(n, v);
    }
  }

  private Object pipeline(Object dot, PipeNode pipe) {
    Object value = null;
    boolean hasFinal = false;
    for (CommandNode cmd : pipe.cmds()) {
      value = command(dot, cmd, value, hasFinal);
      hasFinal = true;
    }
    for (String v : pipe.decl()) {
      declareOrAssign(pipe, v, value);
    }
    return value;
  }

  private Object command(Object dot, CommandNode cmd, Object fin, boolean hasFinal) {
    Node first = cmd.args().get(0);
    current = first;
    List<Node> rest = cmd.args().subList(1, cmd.args().size());
    if (first instanceof Node.FieldNode) {
      return fieldChain(dot, dot, ((Node.FieldNode) first).idents(), rest, fin, hasFinal);
    }
    if (first instanceof Node.ChainNode) {
      Node.ChainNode c = (Node.ChainNode) first;
      Object recv = arg(dot, c.node());
      return fieldChain(dot, recv, c.fields(), rest, fin, hasFinal);
    }
    if (first instanceof Node.IdentifierNode) {
      return function(dot, (Node.IdentifierNode) first, cmd, rest, fin, hasFinal);
    }
    if (first instanceof Node.VariableNode) {
      List<String> idents = ((Node.VariableNode) first).idents();
      Object v = getVar(idents.get(0));
      if (idents.size() == 1) {
        notAFunction(first, rest, hasFinal);
        return v;
      }
      return fieldChain(dot, v, idents.subList(1, idents.size()), rest, fin, hasFinal);
    }
    if (first instanceof PipeNode) {
      notAFunction(first, rest, hasFinal);
      return pipeline(dot, (PipeNode) first);
    }
    notAFunction(first, rest, hasFinal);
    return arg(dot, first);
  }

  private void notAFunction(Node n, List<Node> rest, boolean hasFinal) {
    if (!rest.isEmpty() || hasFinal) {
      throw error("can't give argument to non-function " + n);
    }
  }

  private Object fieldChain(
      Object dot, Object recv, List<String> idents, List<Node> rest, Object fin, boolean hasFinal) {
    Object v = recv;
    for (int k = 0; k < idents.size(); k++) {
      boolean last = k == idents.size() - 1;
      if (last && (!rest.isEmpty() || hasFinal)) {
        throw error(idents.get(k) + " has arguments but cannot be invoked as function");
      }
      v = field(v, idents.get(k));
    }
    return v;
  }

  private Object field(Object recv, String fieldName) {
    if (recv == null) {
      return null;
    }
    if (recv instanceof Map) {
      Object v = ((Map<?, ?>) recv).get(fieldName);
      return v == null ? "" : v;
    }
    if (recv instanceof TemplateData) {
      Object v = ((TemplateData) recv).field(fieldName);
      if (v != TemplateData.NO_SUCH_FIELD) {
        return v;
      }
    }
    throw error("can't evaluate field " + fieldName + " in type " + GoFormat.typeName(recv));
  }

  private Object function(
      Object dot,
      Node.IdentifierNode id,
      CommandNode cmd,
      List<Node> rest,
      Object fin,
      boolean hasFinal) {
    Funcs.Fn fn = Funcs.ALL.get(id.name());
    int n = rest.size() + (hasFinal ? 1 : 0);
    if (n < fn.min() || (fn.max() >= 0 && n > fn.max())) {
      String want = fn.max() < 0 ? "at least " + fn.min() : Integer.toString(fn.min());
      throw error("wrong number of args for " + id.name() + ": want " + want + " got " + n);
    }
    if (Funcs.SHORT_CIRCUIT.contains(id.name())) {
      boolean isAnd = id.name().equals("and");
      Object v = null;
      for (int k = 0; k < n; k++) {
        v = k < rest.size() ? arg(dot, rest.get(k)) : fin;
        if (Funcs.truth(v) != isAnd) {
          return v;
        }
      }
      return v;
    }
    List<Object> args = new ArrayList<>(n);
    for (Node a : rest) {
      args.add(arg(dot, a));
    }
    if (hasFinal) {
      args.add(fin);
    }
    try {
      // Like Go, a later error (a field of the result) points at the last argument evaluated.
      return fn.body().call(args, ctx);
    } catch (TemplateExecException e) {
      throw e;
    } catch (Funcs.ArgTypeException e) {
      throw error(e.getMessage(), cmd);
    } catch (Exception e) {
      String msg = e.getMessage() == null ? e.toString() : e.getMessage();
      throw error("error calling " + id.name() + ": " + msg, cmd);
    }
  }

  private Object arg(Object dot, Node n) {
    current = n;
    if (n instanceof Node.DotNode) {
      return dot;
    }
    if (n instanceof Node.NilNode) {
      return null;
    }
    if (n instanceof Node.BoolNode) {
      return ((Node.BoolNode) n).value();
    }
    if (n instanceof Node.NumberNode) {
      return ((Node.NumberNode) n).value();
    }
    if (n instanceof Node.StringNode) {
      return ((Node.StringNode) n).text();
    }
    if (n instanceof Node.FieldNode) {
      return fieldChain(dot, dot, ((Node.FieldNode) n).idents(), List.of(), null, false);
    }
    if (n instanceof Node.VariableNode) {
      List<String> idents = ((Node.VariableNode) n).idents();
      Object v = getVar(idents.get(0));
      return idents.size() == 1
          ? v
          : fieldChain(dot, v, idents.subList(1, idents.size()), List.of(), null, false);
    }
    if (n instanceof PipeNode) {
      return pipeline(dot, (PipeNode) n);
    }
    if (n instanceof Node.ChainNode) {
      Node.ChainNode c = (Node.ChainNode) n;
      return fieldChain(dot, arg(dot, c.node()), c.fields(), List.of(), null, false);
    }
    if (n instanceof Node.IdentifierNode) {
      CommandNode cmd = new CommandNode(n.pos(), List.of(n));
      return function(dot, (Node.IdentifierNode) n, cmd, List.of(), null, false);
    }
    throw error("can't handle " + n + " as argument");
  }

  private static String printValue(Object v) {
    if (v == null) {
      return "<no value>";
    }
    return GoFormat.sprint(v);
  }

  private TemplateExecException error(String message) {
    return error(message, current);
  }

  private TemplateExecException error(String message, Node at) {
    int pos = at == null ? 0 : at.pos();
    String where = at == null ? "" : " at <" + at + ">";
    return new TemplateExecException(
        "template: "
            + name
            + ":"
            + Positions.line(text, pos)
            + ":"
            + Positions.column(text, pos)
            + ": executing \""
            + name
            + "\""
            + where
            + ": "
            + message);
  }
}
