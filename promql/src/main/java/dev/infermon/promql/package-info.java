/** PromQL: the parser, the printer, the evaluation engine and the promqltest script runner. */
package dev.infermon.promql;
