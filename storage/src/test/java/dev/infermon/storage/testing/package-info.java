/**
 * The storage conformance kit, shipped in the storage test-jar: abstract JUnit 5 classes that every
 * implementation of the seams runs ({@link
 * dev.infermon.storage.testing.AppendableStorageConformance} for writable storages, {@link
 * dev.infermon.storage.testing.QuerierConformance} for read-only views such as on-disk blocks),
 * plus small helpers to read results ({@link dev.infermon.storage.testing.Samples}) and a fixed
 * in-memory querier ({@link dev.infermon.storage.testing.FixedQuerier}), and a tmpfs mounted for a
 * test so that a full disk is real ({@link dev.infermon.storage.testing.TmpfsMount}).
 */
package dev.infermon.storage.testing;
