package dev.infermon.rules.template;

import dev.infermon.model.text.GoQuote;
import dev.infermon.rules.template.Node.BranchNode;
import dev.infermon.rules.template.Node.CommandNode;
import dev.infermon.rules.template.Node.ListNode;
import dev.infermon.rules.template.Node.PipeNode;
import dev.infermon.rules.template.Token.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Builds the parse tree from tokens with the checks Go's parser makes at parse time: unknown
 * functions, undefined variables, unbalanced {@code if}/{@code range}/{@code with}/{@code end},
 * constants used as pipeline stages. Not thread-safe; one per parse.
 */
final class Parser {
  private final String name;
  private final String text;
  private final List<Token> tokens;
  private final Set<String> functions;
  private final List<String> vars = new ArrayList<>();
  private int p;

  private Parser(
      String name, String text, List<Token> tokens, Set<String> functions, List<String> vars) {
    this.name = name;
    this.text = text;
    this.tokens = tokens;
    this.functions = functions;
    this.vars.add("$");
    this.vars.addAll(vars);
  }

  static ListNode parse(String name, String text, Set<String> functions, List<String> predeclared) {
    Parser parser = new Parser(name, text, Lexer.lex(name, text), functions, predeclared);
    ListNode root = parser.list(Set.of());
    return root;
  }

  /** Parses nodes until EOF (top level) or a terminating keyword action, left unconsumed. */
  private ListNode list(Set<String> terminators) {
    List<Node> nodes = new ArrayList<>();
    int start = peek().pos();
    while (true) {
      Token t = peek();
      if (t.is(Kind.EOF)) {
        if (!terminators.isEmpty()) {
          throw error(t, "unexpected EOF");
        }
        return new ListNode(start, nodes);
      }
      if (t.is(Kind.TEXT)) {
        p++;
        nodes.add(new Node.TextNode(t.pos(), t.text()));
        continue;
      }
      // LEFT_DELIM
      Token kw = tokens.get(p + 1);
      if (kw.is(Kind.KEYWORD)) {
        String word = kw.text();
        if (word.equals("end") || word.equals("else")) {
          if (terminators.contains(word)) {
            return new ListNode(start, nodes);
          }
          throw error(kw, "unexpected {{" + word + "}}");
        }
        if (word.equals("if") || word.equals("range") || word.equals("with")) {
          p += 2;
          nodes.add(branch(word, kw));
          continue;
        }
        throw error(kw, "{{" + word + "}} is not supported by infermon's template engine");
      }
      p++;
      PipeNode pipe = pipeline("command", Kind.RIGHT_DELIM);
      expect(Kind.RIGHT_DELIM, "command");
      nodes.add(new Node.ActionNode(t.pos(), pipe));
    }
  }

  /** After {@code {{if}}}: the pipeline, the list, an optional else, and the end. */
  private BranchNode branch(String keyword, Token at) {
    int mark = vars.size();
    try {
      PipeNode pipe = pipeline(keyword, Kind.RIGHT_DELIM);
      expect(Kind.RIGHT_DELIM, keyword);
      ListNode body = list(Set.of("end", "else"));
      ListNode elseList = null;
      p++; // LEFT_DELIM
      Token kw = next();
      if (kw.text().equals("else")) {
        Token after = peek();
        if (after.isKeyword("if") && keyword.equals("if")
            || after.isKeyword("with") && keyword.equals("with")) {
          // {{else if x}} is {{else}}{{if x}}...{{end}}{{end}}; the inner branch eats the end.
          p++;
          BranchNode inner = branch(after.text(), after);
          elseList = new ListNode(after.pos(), List.of(inner));
          return new BranchNode(at.pos(), keyword, pipe, body, elseList);
        }
        expect(Kind.RIGHT_DELIM, "else");
        elseList = list(Set.of("end"));
        p++;
        next(); // end
      }
      expect(Kind.RIGHT_DELIM, "end");
      return new BranchNode(at.pos(), keyword, pipe, body, elseList);
    } finally {
      while (vars.size() > mark) {
        vars.remove(vars.size() - 1);
      }
    }
  }

  private PipeNode pipeline(String context, Kind end) {
    int pos = peek().pos();
    List<String> decl = new ArrayList<>();
    boolean isAssign = false;
    if (peek().is(Kind.VARIABLE) && !peek().text().contains(".")) {
      Token v = peek();
      Token after = tokens.get(p + 1);
      if (after.is(Kind.DECLARE) || after.is(Kind.ASSIGN)) {
        p += 2;
        isAssign = after.is(Kind.ASSIGN);
        if (isAssign && !vars.contains(v.text())) {
          throw error(v, "undefined variable \"" + v.text() + "\"");
        }
        decl.add(v.text());
      } else if (after.is(Kind.COMMA) && context.equals("range")) {
        Token v2 = tokens.get(p + 2);
        Token op = tokens.get(p + 3);
        if (v2.is(Kind.VARIABLE) && (op.is(Kind.DECLARE) || op.is(Kind.ASSIGN))) {
          p += 4;
          isAssign = op.is(Kind.ASSIGN);
          decl.add(v.text());
          decl.add(v2.text());
        } else {
          throw error(after, "too many declarations in " + context);
        }
      }
      if (!isAssign) {
        vars.addAll(decl);
      }
    }
    List<CommandNode> cmds = new ArrayList<>();
    while (true) {
      Token t = peek();
      if (t.is(end)) {
        break;
      }
      cmds.add(command());
      if (peek().is(Kind.PIPE)) {
        p++;
        continue;
      }
      if (!peek().is(end)) {
        throw error(peek(), "unexpected " + describe(peek()) + " in " + context);
      }
    }
    if (cmds.isEmpty()) {
      throw error(peek(), "missing value for " + context);
    }
    for (int k = 1; k < cmds.size(); k++) {
      Node first = cmds.get(k).args().get(0);
      if (first instanceof Node.BoolNode
          || first instanceof Node.DotNode
          || first instanceof Node.NilNode
          || first instanceof Node.NumberNode
          || first instanceof Node.StringNode) {
        throw error(
            tokens.get(Math.max(0, p - 1)), "non executable command in pipeline stage " + (k + 1));
      }
    }
    return new PipeNode(pos, isAssign, decl, cmds);
  }

  private CommandNode command() {
    int pos = peek().pos();
    List<Node> args = new ArrayList<>();
    while (true) {
      Token t = peek();
      if (t.is(Kind.PIPE) || t.is(Kind.RIGHT_DELIM) || t.is(Kind.RIGHT_PAREN) || t.is(Kind.EOF)) {
        break;
      }
      args.add(operand());
    }
    if (args.isEmpty()) {
      throw error(peek(), "empty command");
    }
    if (args.size() == 1 && args.get(0) instanceof Node.NilNode) {
      throw error(peek(), "nil is not a command");
    }
    return new CommandNode(pos, args);
  }

  private Node operand() {
    Token t = next();
    Node node;
    switch (t.kind()) {
      case IDENTIFIER:
        if (!functions.contains(t.text())) {
          throw error(t, "function \"" + t.text() + "\" not defined");
        }
        node = new Node.IdentifierNode(t.pos(), t.text());
        break;
      case DOT:
        node = new Node.DotNode(t.pos());
        break;
      case NIL:
        node = new Node.NilNode(t.pos());
        break;
      case VARIABLE:
        {
          List<String> idents = List.of(t.text().split("\\.", -1));
          if (!vars.contains(idents.get(0))) {
            throw error(t, "undefined variable \"" + idents.get(0) + "\"");
          }
          node = new Node.VariableNode(t.pos(), idents);
          break;
        }
      case FIELD:
        node = new Node.FieldNode(t.pos(), List.of(t.text().substring(1).split("\\.", -1)));
        break;
      case BOOL:
        node = new Node.BoolNode(t.pos(), t.text().equals("true"));
        break;
      case NUMBER:
        node = new Node.NumberNode(t.pos(), t.text(), number(t));
        break;
      case STRING:
        node = new Node.StringNode(t.pos(), t.text());
        break;
      case LEFT_PAREN:
        {
          PipeNode inner = pipeline("parenthesized pipeline", Kind.RIGHT_PAREN);
          Token close = expect(Kind.RIGHT_PAREN, "parenthesized pipeline");
          node = inner;
          Token f = peek();
          if (f.is(Kind.FIELD) && f.pos() == close.pos() + 1) {
            p++;
            node = new Node.ChainNode(t.pos(), inner, List.of(f.text().substring(1).split("\\.")));
          }
          break;
        }
      default:
        throw error(t, "unexpected " + describe(t) + " in operand");
    }
    return node;
  }

  private Object number(Token t) {
    String s = t.text().replace("_", "");
    try {
      String lower = s.toLowerCase(java.util.Locale.ROOT);
      boolean hex = lower.startsWith("0x") || lower.startsWith("-0x") || lower.startsWith("+0x");
      if (!hex && (s.contains(".") || lower.contains("e"))) {
        return Double.parseDouble(s);
      }
      boolean neg = s.startsWith("-");
      String body = s.startsWith("-") || s.startsWith("+") ? s.substring(1) : s;
      String lb = body.toLowerCase(java.util.Locale.ROOT);
      long v;
      if (lb.startsWith("0x")) {
        v = Long.parseLong(body.substring(2), 16);
      } else if (lb.startsWith("0o")) {
        v = Long.parseLong(body.substring(2), 8);
      } else if (lb.startsWith("0b")) {
        v = Long.parseLong(body.substring(2), 2);
      } else if (body.length() > 1 && body.startsWith("0")) {
        v = Long.parseLong(body.substring(1), 8);
      } else {
        v = Long.parseLong(body);
      }
      return neg ? -v : v;
    } catch (NumberFormatException e) {
      throw error(t, "illegal number syntax: " + GoQuote.quote(t.text()));
    }
  }

  private Token expect(Kind kind, String context) {
    Token t = next();
    if (!t.is(kind)) {
      if (t.is(Kind.EOF)) {
        throw error(t, "unexpected EOF");
      }
      throw error(t, "unexpected " + describe(t) + " in " + context);
    }
    return t;
  }

  private static String describe(Token t) {
    switch (t.kind()) {
      case EOF:
        return "EOF";
      case RIGHT_DELIM:
        return "\"}}\"";
      case KEYWORD:
        return "<" + t.text() + ">";
      default:
        return GoQuote.quote(t.text());
    }
  }

  private Token peek() {
    return tokens.get(p);
  }

  private Token next() {
    Token t = tokens.get(p);
    if (!t.is(Kind.EOF)) {
      p++;
    }
    return t;
  }

  private TemplateException error(Token t, String message) {
    return new TemplateException(
        name, Positions.line(text, t.pos()), Positions.column(text, t.pos()), message);
  }
}
