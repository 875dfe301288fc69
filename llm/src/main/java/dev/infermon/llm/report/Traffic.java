package dev.infermon.llm.report;

/**
 * What one model served in a window, from its counters' gains step by step (a counter reset loses
 * its one step). Immutable.
 *
 * @param requests requests finished, whatever their finish reason
 * @param promptTokens prompt tokens processed
 * @param generatedTokens output tokens generated
 * @param meanRate {@code requests} over the window's seconds
 * @param peakRate the highest mean request rate of one period
 * @param peakStartMs the start of that period (the window's start when no request finished)
 */
public record Traffic(
    double requests,
    double promptTokens,
    double generatedTokens,
    double meanRate,
    double peakRate,
    long peakStartMs) {}
