package credlab

import (
	"fmt"

	"github.com/credlab/credlab/internal/memlimit"
)

// MemoryLimit is the most memory, in bytes, that one allocation growing
// with the data (a kernel matrix, a feature matrix, a cache) may take;
// larger ones are refused with a *TooLargeError before anything is
// allocated. Zero means the environment variable CREDLAB_MEMORY_LIMIT
// (parsed by ParseMemoryLimit) when it is set, otherwise three quarters of
// the machine's physical memory (read from /proc/meminfo; 8 GiB where that
// cannot be read). The data loaders of frames check against the same
// limit.
var MemoryLimit int64

func init() { memlimit.Override = func() int64 { return MemoryLimit } }

// EffectiveMemoryLimit returns the limit the memory checks use now, in
// bytes, and where it comes from ("MemoryLimit", "CREDLAB_MEMORY_LIMIT" or
// "physical memory").
func EffectiveMemoryLimit() (int64, string) { return memlimit.Effective() }

// ParseMemoryLimit parses a size such as "512MiB", "4G", "2.5GB" or
// "1000000" (bytes). The suffixes K, M, G and T (with or without a
// trailing "B" or "iB", any case) are powers of 1024. The result must be
// positive; an error is a *ParamError.
func ParseMemoryLimit(s string) (int64, error) { return memlimit.Parse(s) }

// checkAlloc returns a *TooLargeError if a rows x cols float64 matrix named
// what would exceed the memory limit, suggesting Nyström subsampling.
func checkAlloc(what string, rows, cols int) error {
	return checkAllocHint(what, rows, cols, fmt.Sprintf("use Nyström (NKRLS or NYTRO) with m << %d centers, or raise the memory limit", rows))
}

// checkAllocHint is checkAlloc with the advice hint.
func checkAllocHint(what string, rows, cols int, hint string) error {
	return memlimit.Check(what, rows, cols, hint)
}
