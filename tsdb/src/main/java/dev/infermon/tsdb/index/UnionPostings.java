package dev.infermon.tsdb.index;

import java.util.PriorityQueue;

/** References present in any of several postings lists, each once: a heap merge. */
final class UnionPostings implements Postings {
  private final Postings[] lists;
  private PriorityQueue<Postings> heap;
  private long cur = -1;

  UnionPostings(Postings[] lists) {
    this.lists = lists;
  }

  private void init(boolean seek, long ref) {
    heap = new PriorityQueue<>(lists.length, (a, b) -> Long.compare(a.at(), b.at()));
    for (Postings p : lists) {
      if (seek ? p.seek(ref) : p.next()) {
        heap.add(p);
      }
    }
  }

  @Override
  public boolean next() {
    if (heap == null) {
      init(false, 0);
    } else {
      // Advance every list sitting on the current reference.
      while (!heap.isEmpty() && heap.peek().at() == cur) {
        Postings p = heap.poll();
        if (p.next()) {
          heap.add(p);
        }
      }
    }
    if (heap.isEmpty()) {
      return false;
    }
    cur = heap.peek().at();
    return true;
  }

  @Override
  public boolean seek(long ref) {
    if (heap == null) {
      init(true, ref);
    } else {
      if (heap.isEmpty()) {
        return false;
      }
      if (cur >= ref) {
        return true;
      }
      while (!heap.isEmpty() && heap.peek().at() < ref) {
        Postings p = heap.poll();
        if (p.seek(ref)) {
          heap.add(p);
        }
      }
    }
    if (heap.isEmpty()) {
      return false;
    }
    cur = heap.peek().at();
    return true;
  }

  @Override
  public long at() {
    return cur;
  }
}
