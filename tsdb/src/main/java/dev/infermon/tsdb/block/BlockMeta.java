package dev.infermon.tsdb.block;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A block's {@code meta.json} ({@code docs/format/meta.md}): its id, the half-open time range
 * {@code [minTime, maxTime)} it covers, statistics, and its compaction lineage. Immutable.
 *
 * @param ulid the block's id and directory name
 * @param minTime earliest sample time, inclusive, in milliseconds
 * @param maxTime end of the range, exclusive, in milliseconds (Prometheus's convention)
 * @param stats counts of what the block holds
 * @param compaction level (1 = cut from the head), the head blocks it derives from, its parents
 * @param version the meta format version, {@value #VERSION}
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BlockMeta(
    @JsonProperty("ulid") String ulid,
    @JsonProperty("minTime") long minTime,
    @JsonProperty("maxTime") long maxTime,
    @JsonProperty("stats") Stats stats,
    @JsonProperty("compaction") Compaction compaction,
    @JsonProperty("version") int version) {

  /** The only meta version this code writes and reads. */
  public static final int VERSION = 1;

  static final String FILE = "meta.json";

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .enable(SerializationFeature.INDENT_OUTPUT)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  public BlockMeta {
    if (!Ulid.isValid(ulid)) {
      throw new IllegalArgumentException("not a ULID: " + ulid);
    }
    if (maxTime <= minTime) {
      throw new IllegalArgumentException("empty block range [" + minTime + ", " + maxTime + ")");
    }
    if (stats == null || compaction == null) {
      throw new IllegalArgumentException("meta of " + ulid + " lacks stats or compaction");
    }
    if (version != VERSION) {
      throw new IllegalArgumentException("unsupported meta version " + version + " in " + ulid);
    }
  }

  /**
   * @param numSamples samples in the block
   * @param numSeries series in the block
   * @param numChunks chunks in the block
   */
  public record Stats(
      @JsonProperty("numSamples") long numSamples,
      @JsonProperty("numSeries") long numSeries,
      @JsonProperty("numChunks") long numChunks) {}

  /**
   * @param level 1 for a block cut from the head or backfilled, one more than its highest parent
   *     otherwise
   * @param sources ids of the level-1 blocks whose data this block holds, sorted
   * @param parents the blocks merged into this one (empty at level 1)
   * @param hints {@value #BACKFILL} when the block's end is not the head's: it was written from
   *     samples older than the head's appendable window, or merged with such a block that ended
   *     last; written only when not empty
   */
  public record Compaction(
      @JsonProperty("level") int level,
      @JsonProperty("sources") List<String> sources,
      @JsonProperty("parents") List<Parent> parents,
      @JsonProperty("hints") @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> hints) {
    /** The hint of a block whose end says nothing of what the head holds. */
    public static final String BACKFILL = "from-backfill";

    public Compaction {
      if (level < 1) {
        throw new IllegalArgumentException("compaction level must be at least 1: " + level);
      }
      sources = sources == null ? List.of() : List.copyOf(sources);
      parents = parents == null ? List.of() : List.copyOf(parents);
      hints = hints == null ? List.of() : List.copyOf(hints);
    }

    /** The lineage of a block cut from the head. */
    public static Compaction head(String ulid) {
      return new Compaction(1, List.of(ulid), List.of(), List.of());
    }

    /** The lineage of a block written from samples older than the head's window. */
    public static Compaction backfill(String ulid) {
      return new Compaction(1, List.of(ulid), List.of(), List.of(BACKFILL));
    }

    /**
     * The lineage of a block merged from {@code parents}; a backfill when the parent that ends last
     * (all of them that do) is one, since the merged block ends where it does.
     */
    public static Compaction merged(List<BlockMeta> parents) {
      int level = 0;
      java.util.TreeSet<String> sources = new java.util.TreeSet<>();
      List<Parent> ps = new ArrayList<>();
      long end = Long.MIN_VALUE;
      for (BlockMeta p : parents) {
        level = Math.max(level, p.compaction().level());
        sources.addAll(p.compaction().sources());
        ps.add(new Parent(p.ulid(), p.minTime(), p.maxTime()));
        end = Math.max(end, p.maxTime());
      }
      boolean backfill = !parents.isEmpty();
      for (BlockMeta p : parents) {
        if (p.maxTime() == end && !p.compaction().backfilled()) {
          backfill = false;
        }
      }
      return new Compaction(
          level + 1, List.copyOf(sources), ps, backfill ? List.of(BACKFILL) : List.of());
    }

    /** True for a block whose end is not the head's ({@link #BACKFILL}). */
    public boolean backfilled() {
      return hints.contains(BACKFILL);
    }
  }

  /** A block merged into another. */
  public record Parent(
      @JsonProperty("ulid") String ulid,
      @JsonProperty("minTime") long minTime,
      @JsonProperty("maxTime") long maxTime) {}

  /** True when the block holds data in the closed range {@code [mint, maxt]}. */
  public boolean overlaps(long mint, long maxt) {
    return minTime <= maxt && mint < maxTime;
  }

  /** The same meta under another id (the writer picks the id late). */
  BlockMeta withUlid(String id) {
    return new BlockMeta(id, minTime, maxTime, stats, compaction, version);
  }

  /** Reads {@code dir/meta.json}. */
  public static BlockMeta read(Path dir) throws IOException {
    Path f = dir.resolve(FILE);
    try {
      return JSON.readValue(f.toFile(), BlockMeta.class);
    } catch (com.fasterxml.jackson.core.JacksonException | IllegalArgumentException e) {
      throw new CorruptBlockException(f + ": " + e.getMessage(), e);
    }
  }

  /** Writes {@code dir/meta.json} (not synced: the block writer syncs the directory tree). */
  void write(Path dir) throws IOException {
    Files.write(dir.resolve(FILE), JSON.writeValueAsBytes(this));
  }

  /** The JSON text, as written to disk. */
  String toJson() throws IOException {
    return JSON.writeValueAsString(this);
  }
}
