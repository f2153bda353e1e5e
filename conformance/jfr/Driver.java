// Drives JDK Flight Recorder's jdk.ObjectAllocationSample event through the allocation
// plan at a known pace. It starts a recording of that event alone (throttle THROTTLE/s,
// stack traces on) through jdk.jfr.Recording right before the plan, so the throttle's
// first window opens with the plan (the model's time 0), then allocates the plan on the
// main thread with allocation i held back until R_i * 1e9 / ALLOC_RATE ns after the
// plan's start (R_i: the planned bytes before it; busy-waiting on System.nanoTime), the
// model's "rate" clock (families/wall_clock.h). A planned size s is a byte[s - 16]
// array (16 bytes of header, s rounded up to 8 bytes in all). It dumps the recording
// to RECORDING and prints meta lines: the version, how late the plan ran against its
// pace (the largest lag, in ns) and the gap between the recording's start and the
// plan's (ns). The events are read afterwards with `jfr print --json`.
// Usage: java Driver PLAN THROTTLE ALLOC_RATE RECORDING
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import jdk.jfr.Recording;

public final class Driver {
  static final class Site {
    String name;
    int count;
    boolean freed;
    int[] sizes;
  }

  static Object[] live;
  static int liveCount;
  static Object sink;
  static long start;        // the plan's start, System.nanoTime
  static long planned;      // bytes planned before the next allocation
  static double nsPerByte;
  static long maxLag;

  static void allocate(Site s) {
    for (int j = 0; j < s.count; ++j) {
      final int size = s.sizes[j % s.sizes.length];
      final long due = start + (long) (planned * nsPerByte);
      long now = System.nanoTime();
      while (now < due) now = System.nanoTime();
      if (now - due > maxLag) maxLag = now - due;
      byte[] block = new byte[size - 16];
      planned += size;
      if (s.freed) sink = block; else live[liveCount++] = block;
    }
  }

  // One method per site, so an event's stack names its site.
  static void siteStartup(Site s) { allocate(s); }
  static void siteSmall(Site s) { allocate(s); }
  static void siteMedium(Site s) { allocate(s); }
  static void siteLarge(Site s) { allocate(s); }
  static void siteMixed(Site s) { allocate(s); }
  static void siteStacked(Site s) { allocate(s); }
  static void siteMarker(Site s) { allocate(s); }
  static void siteFreed(Site s) { allocate(s); }

  public static void main(String[] args) throws Exception {
    List<Site> sites = new ArrayList<>();
    int total = 0;
    for (String line : Files.readAllLines(Path.of(args[0]))) {
      String[] w = line.trim().split("\\s+");
      if (!w[0].equals("site")) continue;
      Site s = new Site();
      s.name = w[1];
      s.count = Integer.parseInt(w[2]);
      s.freed = !w[3].equals("0");
      s.sizes = new int[w.length - 4];
      for (int i = 4; i < w.length; ++i) s.sizes[i - 4] = Integer.parseInt(w[i]);
      sites.add(s);
      total += s.count;
    }
    final long throttle = Long.parseLong(args[1]);
    nsPerByte = 1e9 / Double.parseDouble(args[2]);
    live = new Object[total];
    Recording recording = new Recording();
    recording.setSettings(Map.of("jdk.ObjectAllocationSample#enabled", "true",
                                 "jdk.ObjectAllocationSample#throttle", throttle + "/s",
                                 "jdk.ObjectAllocationSample#stackTrace", "true"));
    final long beforeStart = System.nanoTime();
    recording.start();
    start = System.nanoTime();
    for (int i = 0; i < sites.size(); ++i) {  // no iterator: nothing but the plan allocates
      Site s = sites.get(i);
      switch (s.name) {
        case "startup": siteStartup(s); break;
        case "small": siteSmall(s); break;
        case "medium": siteMedium(s); break;
        case "large": siteLarge(s); break;
        case "mixed": siteMixed(s); break;
        case "stacked": siteStacked(s); break;
        case "marker": siteMarker(s); break;
        case "freed": siteFreed(s); break;
        default: throw new IllegalArgumentException("no driver method for site " + s.name);
      }
    }
    final long end = System.nanoTime();
    recording.stop();
    recording.dump(Path.of(args[3]));
    System.out.println("meta,version," + System.getProperty("java.vm.version"));
    System.out.println("meta,recording_start_ns," + (start - beforeStart));
    System.out.println("meta,max_lag_ns," + maxLag);
    System.out.println("meta,plan_ns," + (end - start));
  }
}
