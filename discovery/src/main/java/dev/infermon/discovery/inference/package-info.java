/**
 * infermon's inference discovery: Kubernetes pods of LLM inference workloads and the GPU exporter
 * pods beside them (dcgm-exporter, AMD device-metrics-exporter), turned into targets that already
 * carry {@code namespace}, {@code pod}, {@code node}, {@code container}, {@code workload_name},
 * {@code backend}, {@code role}, {@code instance} and {@code job} (see {@link
 * dev.infermon.discovery.inference.InferenceTargets}).
 */
package dev.infermon.discovery.inference;
