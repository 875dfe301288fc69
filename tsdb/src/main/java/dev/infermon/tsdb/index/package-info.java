/**
 * The inverted index: for every label pair, the sorted list of series that carry it ("postings"),
 * and the set operations that turn a selector's matchers into one list of series with Prometheus's
 * semantics ({@link dev.infermon.tsdb.index.MatcherPostings}).
 *
 * <p>{@link dev.infermon.tsdb.index.MemPostings} is the head's index; on-disk blocks implement
 * {@link dev.infermon.tsdb.index.PostingsReader} over their own files and reuse the same matcher
 * evaluation.
 */
package dev.infermon.tsdb.index;
