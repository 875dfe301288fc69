/**
 * File-based discovery ({@code file_sd_configs}): JSON or YAML target files matched by globs,
 * watched for changes and re-read periodically.
 */
package dev.infermon.discovery.file;
