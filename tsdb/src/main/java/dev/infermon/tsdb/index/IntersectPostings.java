package dev.infermon.tsdb.index;

/** References present in all of several postings lists: leapfrogs with seeks. */
final class IntersectPostings implements Postings {
  private final Postings[] lists;
  private long cur = -1;
  private boolean done;

  IntersectPostings(Postings[] lists) {
    this.lists = lists;
  }

  @Override
  public boolean next() {
    if (done || !lists[0].next()) {
      done = true;
      return false;
    }
    return align(lists[0].at());
  }

  @Override
  public boolean seek(long ref) {
    if (done) {
      return false;
    }
    if (cur >= ref) {
      return true;
    }
    if (!lists[0].seek(ref)) {
      done = true;
      return false;
    }
    return align(lists[0].at());
  }

  /** Seeks every list to a common reference at or after {@code target}. */
  private boolean align(long target) {
    int agreed = 1; // lists[0] is at target
    int k = 1;
    while (agreed < lists.length) {
      Postings p = lists[k];
      if (!p.seek(target)) {
        done = true;
        return false;
      }
      long at = p.at();
      if (at == target) {
        agreed++;
      } else {
        target = at;
        agreed = 1;
      }
      k = (k + 1) % lists.length;
    }
    cur = target;
    return true;
  }

  @Override
  public long at() {
    return cur;
  }
}
