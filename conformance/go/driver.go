// Drives the Go runtime's heap-profile sampler (runtime.MemProfileRate) through the
// allocation plan and reports its runtime.MemProfile records.
//
// The driver sets runtime.MemProfileRate = R first thing in main. It is also run with
// GODEBUG=memprofilerate=<R>, to show that Go 1.19 ignores it: the runtime parses
// GODEBUG in schedinit, before the runtime package's initialiser sets MemProfileRate
// to its default 512 KiB (mprof.go), so the GODEBUG value is overwritten
// (meta rate_at_main). Output (CSV on stdout):
//
//	meta,<key>,<value>                          version, rate, rate_at_main
//	sample,<site>,<requested>,<slot>,<live>     one per sampled allocation: each record
//	    (stack, slot size) has AllocObjects samples, InUseObjects of them still live after
//	    two runtime.GC() calls
//	estimate,<site>,<objects>,<bytes>           live objects and bytes scaled per record
//	    as runtime/pprof's scaleHeapSample does (protomem.go): int64(v / (1 - e^(-avg/R)))
//	size,<requested>,<slot>                     runtime.roundupsize for every planned size
//
// Usage: driver PLAN
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	_ "unsafe" // go:linkname
)

//go:linkname roundupsize runtime.roundupsize
func roundupsize(size uintptr) uintptr

type site struct {
	name  string
	count int
	freed bool
	sizes []int
}

var (
	live [][]byte // blocks kept until the profile is read
	sink []byte   // freed blocks pass through here
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "driver: "+format+"\n", args...)
	os.Exit(2)
}

func readPlan(path string) (rate int, sites []site) {
	file, err := os.Open(path)
	if err != nil {
		fail("cannot read plan %s", path)
	}
	defer file.Close()
	scanner := bufio.NewScanner(file)
	for scanner.Scan() {
		words := strings.Fields(scanner.Text())
		number := func(i int) int {
			v, err := strconv.Atoi(words[i])
			if err != nil {
				fail("plan: %q is not a number", words[i])
			}
			return v
		}
		switch {
		case len(words) == 2 && words[0] == "rate":
			rate = number(1)
		case len(words) >= 5 && words[0] == "site":
			s := site{name: words[1], count: number(2), freed: number(3) != 0}
			for i := 4; i < len(words); i++ {
				s.sizes = append(s.sizes, number(i))
			}
			sites = append(sites, s)
		case len(words) > 0:
			fail("plan: unknown line %q", scanner.Text())
		}
	}
	return rate, sites
}

// One function per site, never inlined, so a sample's stack names its site.
//
//go:noinline
func allocate(s *site) {
	for j := 0; j < s.count; j++ {
		b := make([]byte, s.sizes[j%len(s.sizes)])
		if s.freed {
			sink = b
		} else {
			live = append(live, b)
		}
	}
}

//go:noinline
func siteStartup(s *site) { allocate(s) }

//go:noinline
func siteSmall(s *site) { allocate(s) }

//go:noinline
func siteMedium(s *site) { allocate(s) }

//go:noinline
func siteLarge(s *site) { allocate(s) }

//go:noinline
func siteMixed(s *site) { allocate(s) }

//go:noinline
func siteStacked(s *site) { allocate(s) }

//go:noinline
func siteMarker(s *site) { allocate(s) }

//go:noinline
func siteFreed(s *site) { allocate(s) }

var siteFunctions = map[string]func(*site){
	"startup": siteStartup, "small": siteSmall, "medium": siteMedium, "large": siteLarge,
	"mixed": siteMixed, "stacked": siteStacked, "marker": siteMarker, "freed": siteFreed,
}

// The site of a record: the first frame in main.site<Name>, for records whose
// allocation is the site's own make (the first frame is main.allocate). Any other
// record with a site on its stack is an allocation the runtime made for itself
// while the site ran (seen under load: a 96-byte object inside the stacked site,
// about once in 2000 runs), no allocation of the plan.
func siteOf(stack []uintptr) string {
	if len(stack) == 0 {
		return ""
	}
	if f := runtime.FuncForPC(stack[0] - 1); f == nil || f.Name() != "main.allocate" {
		return ""
	}
	for _, pc := range stack[1:] {
		if f := runtime.FuncForPC(pc - 1); f != nil && strings.HasPrefix(f.Name(), "main.site") {
			return strings.ToLower(strings.TrimPrefix(f.Name(), "main.site"))
		}
	}
	return ""
}

func main() {
	if len(os.Args) != 2 {
		fail("usage: driver PLAN")
	}
	rateAtMain := runtime.MemProfileRate
	rate, sites := readPlan(os.Args[1])
	runtime.MemProfileRate = rate
	total := 0
	for _, s := range sites {
		if _, ok := siteFunctions[s.name]; !ok {
			fail("plan: no driver function for site %s", s.name)
		}
		total += s.count
	}
	live = make([][]byte, 0, total)
	for i := range sites {
		siteFunctions[sites[i].name](&sites[i])
	}
	sink = nil
	runtime.GC()
	runtime.GC()

	var records []runtime.MemProfileRecord
	for n := 64; ; n *= 2 {
		records = make([]runtime.MemProfileRecord, n)
		if count, ok := runtime.MemProfile(records, true); ok {
			records = records[:count]
			break
		}
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	fmt.Fprintf(out, "meta,version,%s\nmeta,rate,%d\nmeta,rate_at_main,%d\n", runtime.Version(), rate, rateAtMain)
	// A record gives only the slot size: the request is the one size of its site in
	// that slot (a site whose sizes share a slot cannot be told apart).
	type siteSlot struct {
		site string
		slot int
	}
	requestOf := map[siteSlot]int{}
	for _, s := range sites {
		for _, size := range s.sizes {
			slot := int(roundupsize(uintptr(size)))
			key := siteSlot{s.name, slot}
			if other, ok := requestOf[key]; ok && other != size {
				fail("plan: site %s has sizes %d and %d in the same %d-byte slot", s.name, other, size, slot)
			}
			requestOf[key] = size
			fmt.Fprintf(out, "size,%d,%d\n", size, slot)
		}
	}
	estimates := map[string][2]int64{}
	for _, r := range records {
		name := siteOf(r.Stack())
		if name == "" || r.AllocObjects == 0 {
			continue
		}
		slot := int(r.AllocBytes / r.AllocObjects)
		for i := int64(0); i < r.AllocObjects; i++ {
			liveFlag := 0
			if i < r.InUseObjects() {
				liveFlag = 1
			}
			fmt.Fprintf(out, "sample,%s,%d,%d,%d\n", name, requestOf[siteSlot{name, slot}], slot, liveFlag)
		}
		if r.InUseObjects() > 0 {
			scale := 1 / (1 - math.Exp(-float64(r.InUseBytes())/float64(r.InUseObjects())/float64(rate)))
			e := estimates[name]
			e[0] += int64(float64(r.InUseObjects()) * scale)
			e[1] += int64(float64(r.InUseBytes()) * scale)
			estimates[name] = e
		}
	}
	for name, e := range estimates {
		fmt.Fprintf(out, "estimate,%s,%d,%d\n", name, e[0], e[1])
	}
}
