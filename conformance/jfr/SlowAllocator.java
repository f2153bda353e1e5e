// Allocates COUNT byte arrays of SIZE bytes, GAP_MS milliseconds apart, on the main
// thread alone: the check of JFR's expired-window rejection (docs/findings.md, the
// jfr row). Usage: java SlowAllocator COUNT GAP_MS SIZE
public final class SlowAllocator {
  static Object sink;

  public static void main(String[] args) throws Exception {
    final int count = Integer.parseInt(args[0]);
    final long gapMs = Long.parseLong(args[1]);
    final int size = Integer.parseInt(args[2]);
    for (int i = 0; i < count; ++i) {
      sink = new byte[size];
      Thread.sleep(gapMs);
    }
  }
}
