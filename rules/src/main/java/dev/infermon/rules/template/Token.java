package dev.infermon.rules.template;

/** One lexical item of a template, with its byte offset in the template text. */
record Token(Kind kind, String text, int pos) {
  enum Kind {
    TEXT,
    LEFT_DELIM,
    RIGHT_DELIM,
    IDENTIFIER,
    KEYWORD,
    FIELD,
    VARIABLE,
    DOT,
    STRING,
    NUMBER,
    BOOL,
    NIL,
    PIPE,
    LEFT_PAREN,
    RIGHT_PAREN,
    DECLARE,
    ASSIGN,
    COMMA,
    EOF
  }

  boolean is(Kind k) {
    return kind == k;
  }

  boolean isKeyword(String word) {
    return kind == Kind.KEYWORD && text.equals(word);
  }
}
