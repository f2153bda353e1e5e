// Node.js heap profile with known live sites: V8's SamplingHeapProfiler started
// through @datadog/pprof (heap.start(INTERVAL, 64)), each site a named function that
// allocates its arrays and keeps them live, the profile (heap.profile(), encodeSync)
// written as gzip'd pprof while they are live; with AS_GO.pb.gz, the same profile
// again under Go's sample types (below). Prints each site's name and its count of
// arrays, one per line. Run by scripts/profile-real-node.sh, with @datadog/pprof on
// NODE_PATH and V8's flags --max-opt=0 --no-lazy-feedback-allocation (why: there).
//   node heap_node.js INTERVAL OUT.pb.gz [AS_GO.pb.gz]
'use strict';
const fs = require('fs');
const pprof = require('@datadog/pprof');
const {ValueType} = require('pprof-format');

const [interval, out, asGo] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
if (!(interval >= 1) || !out) {
  console.error('usage: node heap_node.js INTERVAL OUT.pb.gz [AS_GO.pb.gz]');
  process.exit(2);
}

// A holder for n arrays, allocated here rather than in the site that fills it.
function holder(n) {
  const kept = [];
  for (let i = 0; i < n; ++i) kept.push(0);
  return kept;
}
// new Array(length) allocates a JSArray and its FixedArray of `length` holes as one
// object (with its AllocationMemento): 32 + 16 + 8 length + 16 bytes.
function siteSmall(kept) {
  for (let i = 0; i < kept.length; ++i) kept[i] = new Array(4);
}
function siteMedium(kept) {
  for (let i = 0; i < kept.length; ++i) kept[i] = new Array(510);
}
function siteLarge(kept) {
  for (let i = 0; i < kept.length; ++i) kept[i] = new Array(8190);
}

pprof.heap.start(interval, 64);
const sites = [[siteSmall, 20000], [siteMedium, 2000], [siteLarge, 100]];
const live = sites.map(([, count]) => holder(count));
sites.forEach(([site], i) => site(live[i]));
const profile = pprof.heap.profile();
fs.writeFileSync(out, pprof.encodeSync(profile));
if (asGo) {
  // The same samples under Go's inuse_/alloc_ types: allocsim reads them as Go's, its
  // samples ceil(written / f) (Go's floor(k f)) rather than round(written / f).
  profile.sampleType = ['inuse_objects', 'inuse_space', 'alloc_objects', 'alloc_space'].map(
      (type, i) => new ValueType({type: profile.stringTable.dedup(type),
                                  unit: profile.stringTable.dedup(i % 2 ? 'bytes' : 'count')}));
  for (const sample of profile.sample) sample.value = [...sample.value, ...sample.value];
  fs.writeFileSync(asGo, pprof.encodeSync(profile));
}
pprof.heap.stop();
for (const [site, count] of sites) console.log(site.name, count);
globalThis.live = live;  // live until the end, past the profile
