package dev.infermon.tsdb.index;

/** References of one list that are absent from another. */
final class WithoutPostings implements Postings {
  private final Postings full;
  private final Postings drop;
  private boolean dropStarted;
  private boolean dropHas = true;

  WithoutPostings(Postings full, Postings drop) {
    this.full = full;
    this.drop = drop;
  }

  @Override
  public boolean next() {
    return full.next() && skipDropped();
  }

  @Override
  public boolean seek(long ref) {
    return full.seek(ref) && skipDropped();
  }

  private boolean skipDropped() {
    while (true) {
      long at = full.at();
      if (dropHas) {
        if (!dropStarted || drop.at() < at) {
          dropStarted = true;
          dropHas = drop.seek(at);
        }
      }
      if (!dropHas || drop.at() != at) {
        return true;
      }
      if (!full.next()) {
        return false;
      }
    }
  }

  @Override
  public long at() {
    return full.at();
  }
}
