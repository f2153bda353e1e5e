#pragma once
// `jfr`: JDK Flight Recorder's jdk.ObjectAllocationSample event (OpenJDK 16+, on by
// default in default.jfc at "throttle 150/s", profile.jfc 300/s: src/jdk.jfr/share/
// conf/jfr/*.jfc, read at openjdk/jdk17u-dev 1151343), as JDK 17 does it
// (src/hotspot/share/jfr/support/jfrObjectAllocationSample.cpp, read at
// microsoft/openjdk-jdk17u 150e7e9; landscape-2026.md §1.2 item (1)).
//
// Candidates: the allocation slow paths only (jfr_tlab.h): an object that starts a new
// TLAB, or one allocated outside a TLAB. Per thread, a = Thread::allocated_bytes() (the
// retired TLABs' used bytes plus outside objects: at a new-TLAB event every earlier
// object of the thread, at an outside event the object itself too but not the current
// TLAB's bytes) and L = JfrThreadLocal::last_allocated_bytes, 0 at the start:
//   load_allocated_bytes: L == 0: L = a, no event (initialization: the bytes before
//     the thread's first event with a > 0 are never weighed); a == L: no event;
//   new TLAB: one try;
//   outside (normalize_as_tlab_and_send_allocation_samples): E = desired TLAB - the
//     alignment reserve (estimate_tlab_size_bytes); no try at all when a - L < E;
//     otherwise tries while the object's size, less E per failed try, stays > 0:
//     ceil(size / E) tries at most, so an object just above m E gets m + 1;
//   a try is the throttle (jfr_throttle.h) at the event's time; accepted: an event of
//     weight a - L, then L = a. A rejected try leaves L, so its bytes go to the
//     thread's next accepted event, whichever object and site that is.
// The weight of each thread's events sums to a(last accepted) - a(initialization):
// the thread's bytes less its first TLAB (or first outside object) and less what
// follows its last accepted event's a.
//
// TLABs: a fixed size (-XX:TLABSize with -XX:-ResizeTLAB; the JVM's own desired size
// adapts to the allocation rate, which this model does not follow), `tlab_max`
// capping a new TLAB (G1: half a region; objects that do not fit go outside). The
// heap is one contiguous space (JvmHeap without regions), no GC within the trace.
// Time: the wall clock (families/wall_clock.h), by default the program allocating
// 512 MiB/s, a busy Java service (G1 sized for hundreds of MB/s of young-generation
// churn); with 256 KiB TLABs that is ~2000 TLAB refills a second, 13x the 150/s target.
//
// Estimators, as a consumer computes them (JMC's allocation pressure, `jfr print`,
// async-profiler's and Datadog's converters: the sum of weights per stack or class):
//   bytes     = sum of weight per sample: per thread the bytes up to its last
//               sample (above); per site biased towards the sites whose objects take
//               the slow paths, and, when the throttle rejects, to the sites of the
//               accepted tries (large outside objects get up to ceil(size/E) tries);
//   count_raw = 1 per sample.
// No closed form: inclusion depends on the process-wide throttle's history.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "allocsim/sampler/families/wall_clock.h"
#include "allocsim/sampler/observation.h"
#include "allocsim/sampler/registry.h"
#include "allocsim/sampler/systems/jfr/jfr_throttle.h"
#include "allocsim/sampler/systems/jfr/jfr_tlab.h"
#include "allocsim/sampler/systems/jvm/jvm.h"
#include "allocsim/trace/trace.h"

namespace allocsim {

inline constexpr std::uint64_t kJfrDefaultThrottle = 150;            // default.jfc: 150/s
inline constexpr std::uint64_t kJfrDefaultAllocRate = 512ULL << 20;  // bytes a second
inline constexpr std::uint64_t kJfrDefaultTlab = 256 << 10;          // bytes
inline constexpr std::uint64_t kJfrDefaultTlabMax = 1 << 20;         // G1, 2 MiB regions

struct JfrConfig {
  std::uint64_t throttle = kJfrDefaultThrottle;  // events per second
  JvmTlabConfig tlab;
  WallClockSettings clock;

  // estimate_tlab_size_bytes: the desired TLAB less the alignment reserve.
  std::uint64_t tlab_estimate() const { return tlab.desired - tlab.reserve; }
};

class JfrSampler {
 public:
  explicit JfrSampler(const JfrConfig& config) : config_(config) {}

  // Observation: offset 0, weight = a - L at acceptance. The throttle's uniforms come
  // from thread 0's stream (one process-wide sampler).
  template <class Stream>
  void replay(const Trace& trace, std::span<Stream> lanes, std::vector<Observation>& out) {
    if (lanes.empty()) return;
    Stream& lane = lanes[0];
    auto uniform = [&lane] { return jfr_uniform_from_bits(lane.next_u64()); };
    JfrThrottle throttle(jfr_throttle_params(config_.throttle), uniform);
    threads_.assign(lanes.size(), JfrThreadState{JfrTlab(config_.tlab)});
    JvmHeap heap(config_.tlab);
    WallClock clock(config_.clock, trace);
    const std::int64_t estimate = static_cast<std::int64_t>(config_.tlab_estimate());
    const std::size_t n = trace.size();
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t t_ns = clock.at(i);
      const std::uint64_t size = jvm_object_size(trace.requested[i]);
      JfrThreadState& thread = threads_[trace.thread[i]];
      const JfrAllocationPath path = thread.tlab.allocate(config_.tlab, heap, size);
      if (path == JfrAllocationPath::fast) continue;
      // load_allocated_bytes
      const std::uint64_t a = thread.tlab.allocated_bytes();
      if (thread.last == 0) {
        thread.last = a;
        continue;
      }
      if (a == thread.last) continue;
      auto try_send = [&] {
        if (!throttle.sample(t_ns, uniform)) return false;
        out.push_back({i, 1, 0, static_cast<double>(a - thread.last)});
        thread.last = a;
        return true;
      };
      if (path == JfrAllocationPath::new_tlab) {
        try_send();
        continue;
      }
      if (estimate <= 0 || static_cast<std::int64_t>(a - thread.last) < estimate) continue;
      auto remaining = static_cast<std::int64_t>(size);
      do {
        if (try_send()) break;
        remaining -= estimate;
      } while (remaining > 0);
    }
  }

 private:
  struct JfrThreadState {
    JfrTlab tlab;
    std::uint64_t last = 0;  // JfrThreadLocal::last_allocated_bytes
  };

  JfrConfig config_;
  std::vector<JfrThreadState> threads_;
};

SchemeDescriptor jfr_scheme();

// The conformance driver (jfr_driver.cpp), and its reader: the driver's standard
// output (meta lines, then `jfr print --json --events jdk.ObjectAllocationSample`)
// as driver lines: one "sample,<site>,0,0,1" per event whose stack passes through a
// Driver.site<Name> method, "estimate,<site>,<events>,<summed weight>" per site, and
// meta events / events_outside_plan. InputError on output that is not such JSON.
std::string jfr_samples_csv(const std::string& output);
std::vector<ConformanceSystem> jfr_drivers();

}  // namespace allocsim
