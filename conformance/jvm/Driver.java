// Drives the JVM's heap sampler (JEP 331) through the allocation plan; the JVMTI agent
// (agent.c) records each SampledObjectAlloc event. A planned size s is a byte[s - 16]
// array: 16 bytes of header (compressed class pointers) plus s - 16 elements, s bytes
// in all for the plan's sizes (multiples of 8, at least 16). Before the plan it reads
// the bytes the main thread has allocated so far (ThreadMXBean; the reading's own
// allocations estimated from a second reading) and reports them as
// allocated_before_plan: with the TLAB sizes fixed, what is left of the TLAB the
// thread filled before sampling was switched on.
// With --probe-tlab REGION (G1 with REGION-byte regions, run with
// -XX:-UseCompressedOops so that an Object[] slot holds an address) it runs a full
// collection, waits for the threads that wake up after it, then allocates empty
// arrays until one lands at the start of a region: under G1 that is the object whose
// TLAB refill failed because its region was full, and the next array refills a TLAB
// at region offset 16 (reported as probe_tlab_offset). The plan then starts in a
// known TLAB and region.
// Usage: java -agentpath:libagent.so=<interval> Driver PLAN [--probe-tlab REGION]
import java.lang.management.ManagementFactory;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

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
  static final Object[] probeSlot = new Object[1];

  // The address of `o`: the raw slot of an Object[] without compressed oops.
  static long addressOf(sun.misc.Unsafe unsafe, Object o) {
    probeSlot[0] = o;
    return unsafe.getLong(probeSlot, (long) sun.misc.Unsafe.ARRAY_OBJECT_BASE_OFFSET);
  }

  // Allocates empty arrays until one lands at a region start, then one more; returns
  // the last one's offset in its region.
  static long probeTlab(long region) throws Exception {
    Field field = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
    field.setAccessible(true);
    sun.misc.Unsafe unsafe = (sun.misc.Unsafe) field.get(null);
    if (sun.misc.Unsafe.ARRAY_OBJECT_INDEX_SCALE != 8) throw new IllegalStateException("--probe-tlab needs -XX:-UseCompressedOops");
    System.gc();
    Thread.sleep(200);
    for (long probes = 0; probes < 4 * region / 16; ++probes) {
      if (addressOf(unsafe, new byte[0]) % region == 0) return addressOf(unsafe, new byte[0]) % region;
    }
    throw new IllegalStateException("--probe-tlab: no array landed at a region start");
  }

  static void allocate(Site s) {
    for (int j = 0; j < s.count; ++j) {
      byte[] block = new byte[s.sizes[j % s.sizes.length] - 16];
      if (s.freed) sink = block; else live[liveCount++] = block;
    }
  }

  // One method per site, so a sample's stack names its site.
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
    live = new Object[total];
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long first = threads.getCurrentThreadAllocatedBytes();
    long second = threads.getCurrentThreadAllocatedBytes();
    long beforePlan = second + (second - first);
    final boolean probe = args.length > 2 && args[1].equals("--probe-tlab");
    final long tlabOffset = probe ? probeTlab(Long.parseLong(args[2])) : 0;
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
    System.out.println("meta,version," + System.getProperty("java.vm.version"));
    System.out.println("meta,allocated_before_plan," + beforePlan);
    if (probe) System.out.println("meta,probe_tlab_offset," + tlabOffset);
  }
}
