/**
 * The report over a window ({@code infermon report}, {@code /api/v1/llm/report}): per model, the
 * traffic it served, its SLOs' attainment, its worst periods by time to first token each with the
 * diagnosis of that period, its capacity headroom and its efficiency and cost. Front door {@link
 * dev.infermon.llm.report.ReportService}, which reads its own figures through the dashboard's
 * compiler and the SLO rules' expressions and takes the rest from the diagnosis, capacity and
 * efficiency services; its answer is an immutable {@link dev.infermon.llm.report.Report}, rendered
 * by {@link dev.infermon.llm.report.ReportJson} and {@link dev.infermon.llm.report.ReportText}
 * (docs/report.md).
 */
package dev.infermon.llm.report;
