package dev.infermon.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** parse(print(tree)) is the tree, for random type-correct trees of the parser's shapes. */
class RoundTripProperties {

  @Property(tries = 2000)
  void printThenParseGivesTheSameTree(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 5) int depth) {
    Expr tree = new AstGenerator(seed).expr(depth);
    String printed = Printer.print(tree);
    assertThat(PromqlParser.parse(printed)).as(printed).isEqualTo(tree);
  }

  @Property(tries = 200)
  void printingIsStable(@ForAll long seed) {
    Expr tree = new AstGenerator(seed).expr(4);
    String printed = Printer.print(tree);
    assertThat(Printer.print(PromqlParser.parse(printed))).isEqualTo(printed);
  }
}
