package credlab

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
)

// MemoryLimit is the most memory, in bytes, that one allocation growing
// with the data (a kernel matrix, a feature matrix, a cache) may take;
// larger ones are refused with a *TooLargeError before anything is
// allocated. Zero means the environment variable CREDLAB_MEMORY_LIMIT
// (parsed by ParseMemoryLimit) when it is set, otherwise three quarters of
// the machine's physical memory (read from /proc/meminfo; 8 GiB where that
// cannot be read).
var MemoryLimit int64

var (
	physOnce sync.Once
	physMem  int64
)

// EffectiveMemoryLimit returns the limit the memory checks use now, in
// bytes, and where it comes from ("MemoryLimit", "CREDLAB_MEMORY_LIMIT" or
// "physical memory").
func EffectiveMemoryLimit() (int64, string) {
	if MemoryLimit > 0 {
		return MemoryLimit, "MemoryLimit"
	}
	if s := os.Getenv("CREDLAB_MEMORY_LIMIT"); s != "" {
		if v, err := ParseMemoryLimit(s); err == nil {
			return v, "CREDLAB_MEMORY_LIMIT"
		}
	}
	physOnce.Do(func() {
		physMem = 8 << 30
		f, err := os.Open("/proc/meminfo")
		if err != nil {
			return
		}
		defer f.Close()
		s := bufio.NewScanner(f)
		for s.Scan() {
			fields := strings.Fields(s.Text())
			if len(fields) >= 2 && fields[0] == "MemTotal:" {
				if kb, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
					physMem = kb << 10
				}
				return
			}
		}
	})
	return physMem / 4 * 3, "physical memory"
}

func memoryLimit() int64 {
	v, _ := EffectiveMemoryLimit()
	return v
}

// ParseMemoryLimit parses a size such as "512MiB", "4G", "2.5GB" or
// "1000000" (bytes). The suffixes K, M, G and T (with or without a
// trailing "B" or "iB", any case) are powers of 1024. The result must be
// positive; an error is a *ParamError.
func ParseMemoryLimit(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := 1.0
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	b := v * mult
	if err != nil || !(b >= 1) || b > math.MaxInt64/2 {
		return 0, &ParamError{Name: "memory limit", Value: s, Want: "a positive size such as 512MiB, 4GiB or a number of bytes"}
	}
	return int64(b), nil
}

// checkAlloc returns a *TooLargeError if a rows x cols float64 matrix named
// what would exceed the memory limit, suggesting Nyström subsampling.
func checkAlloc(what string, rows, cols int) error {
	return checkAllocHint(what, rows, cols, fmt.Sprintf("use Nyström (NKRLS or NYTRO) with m << %d centers, or raise the memory limit", rows))
}

// checkAllocHint is checkAlloc with the advice hint.
func checkAllocHint(what string, rows, cols int, hint string) error {
	need := float64(rows) * float64(cols) * 8
	if lim := memoryLimit(); need > float64(lim) {
		return &TooLargeError{What: what, Rows: rows, Cols: cols, Bytes: need, Limit: lim, Hint: hint}
	}
	return nil
}

func byteSize(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	default:
		return fmt.Sprintf("%.0f B", b)
	}
}
