package dev.infermon.tsdb.wal;

import dev.infermon.tsdb.fileutil.FileUtil;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;

/** What a log directory holds: segment indexes and the newest checkpoint. */
final class WalDir {
  private WalDir() {}

  /**
   * @param segments segment indexes, ascending
   * @param checkpoint index of the newest checkpoint, or -1
   * @param olderCheckpoints indexes of checkpoints superseded by the newest
   * @param leftovers temporary directories of interrupted checkpoints and temporary files of
   *     interrupted segment repairs
   */
  record Contents(
      List<Integer> segments,
      int checkpoint,
      List<Integer> olderCheckpoints,
      List<Path> leftovers) {
    int lastSegment() {
      return segments.isEmpty() ? -1 : segments.get(segments.size() - 1);
    }
  }

  static Contents scan(Path dir) throws IOException {
    List<Integer> segments = new ArrayList<>();
    List<Integer> checkpoints = new ArrayList<>();
    List<Path> leftovers = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return new Contents(segments, -1, checkpoints, leftovers);
    }
    for (Path p : FileUtil.list(dir)) {
      String name = p.getFileName().toString();
      if (WalFormat.SEGMENT_NAME.matcher(name).matches() && Files.isRegularFile(p)) {
        segments.add(Integer.parseInt(name));
        continue;
      }
      Matcher m = WalFormat.CHECKPOINT_NAME.matcher(name);
      if (m.matches() && Files.isDirectory(p)) {
        checkpoints.add(Integer.parseInt(m.group(1)));
      } else if ((name.startsWith("checkpoint.") && name.endsWith(WalFormat.TMP_SUFFIX))
          || name.endsWith(WalReplay.REPAIR_SUFFIX)) {
        leftovers.add(p);
      }
    }
    segments.sort(null);
    checkpoints.sort(null);
    int newest = checkpoints.isEmpty() ? -1 : checkpoints.remove(checkpoints.size() - 1);
    return new Contents(segments, newest, checkpoints, leftovers);
  }

  static Path checkpointPath(Path dir, int index) {
    return dir.resolve(WalFormat.checkpointName(index));
  }

  /** Total bytes of segments and checkpoints. */
  static long size(Path dir) {
    return FileUtil.size(dir);
  }
}
