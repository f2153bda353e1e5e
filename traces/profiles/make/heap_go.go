// Writes a Go 1.19 heap profile (gzip'd profile.proto) of a program whose call sites
// allocate known bytes, and a short CPU profile (an input `allocsim profile` must refuse).
//
// Usage: heap_go RATE HEAP_OUT CPU_OUT [MEDIUM_FACTOR]
//
// With HEAP_GO_TEXT=FILE in the environment it also writes the same profile as the text
// of /debug/pprof/heap?debug=1 (pprof.Lookup("heap").WriteTo(w, 1)) to FILE.
//
// MEDIUM_FACTOR (default 1) multiplies siteMedium's 2000 blocks, a known change for
// scripts/diff-real-check.sh; at most 2.5, so every block still fits live's capacity
// (a regrown live would be one more record). Without it the allocations are as before.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
)

var (
	live        [][]byte // blocks kept until the profile is written
	sink        []byte   // freed blocks pass through here
	mediumCount = 2000   // siteMedium's blocks
)

//go:noinline
func allocate(count, size int, keep bool) {
	for j := 0; j < count; j++ {
		b := make([]byte, size)
		if keep {
			live = append(live, b)
		} else {
			sink = b
		}
	}
}

// One function per site, never inlined, so each sample's stack names its site.
//
//go:noinline
func siteSmall() { allocate(20000, 64, true) }

//go:noinline
func siteMedium() { allocate(mediumCount, 4096, true) }

//go:noinline
func siteLarge() { allocate(20, 1<<20, true) }

//go:noinline
func siteFreed() { allocate(10000, 1024, false) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "heap_go:", err)
	os.Exit(2)
}

func main() {
	if len(os.Args) != 4 && len(os.Args) != 5 {
		fail(fmt.Errorf("usage: heap_go RATE HEAP_OUT CPU_OUT [MEDIUM_FACTOR]"))
	}
	rate, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fail(err)
	}
	if len(os.Args) == 5 {
		factor, err := strconv.ParseFloat(os.Args[4], 64)
		if err != nil || !(factor > 0 && factor <= 2.5) {
			fail(fmt.Errorf("MEDIUM_FACTOR %q: not a number in (0, 2.5]", os.Args[4]))
		}
		mediumCount = int(2000*factor + 0.5)
	}
	runtime.MemProfileRate = rate
	live = make([][]byte, 0, 30000)

	cpu, err := os.Create(os.Args[3])
	if err != nil {
		fail(err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fail(err)
	}
	siteSmall()
	siteMedium()
	siteLarge()
	siteFreed()
	pprof.StopCPUProfile()
	cpu.Close()

	// The heap profile shows the state as of the last completed GC cycle.
	runtime.GC()
	runtime.GC()
	heap, err := os.Create(os.Args[2])
	if err != nil {
		fail(err)
	}
	if err := pprof.WriteHeapProfile(heap); err != nil {
		fail(err)
	}
	heap.Close()
	if path := os.Getenv("HEAP_GO_TEXT"); path != "" {
		text, err := os.Create(path)
		if err != nil {
			fail(err)
		}
		if err := pprof.Lookup("heap").WriteTo(text, 1); err != nil {
			fail(err)
		}
		text.Close()
	}
	runtime.KeepAlive(live)
}
