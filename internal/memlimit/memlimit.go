// Package memlimit is credlab's memory planning, in a leaf package that
// internal/datasets uses without importing credlab: the effective limit
// on one allocation growing with the data, its parsing, and the check made
// before allocating. credlab exports it as MemoryLimit,
// EffectiveMemoryLimit and ParseMemoryLimit.
package memlimit

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/credlab/credlab/internal/errs"
)

// Override returns the limit set in code, in bytes (0: none). credlab
// points it at its MemoryLimit variable when it is initialized, so that
// every package checks against the one limit a program sets.
var Override = func() int64 { return 0 }

var (
	physOnce sync.Once
	physMem  int64
)

// Effective returns the limit the memory checks use now, in bytes, and
// where it comes from: Override ("MemoryLimit"), the environment variable
// CREDLAB_MEMORY_LIMIT (parsed by Parse) or three quarters of the
// machine's physical memory (read from /proc/meminfo; 8 GiB where that
// cannot be read), "physical memory".
func Effective() (int64, string) {
	if v := Override(); v > 0 {
		return v, "MemoryLimit"
	}
	if s := os.Getenv("CREDLAB_MEMORY_LIMIT"); s != "" {
		if v, err := Parse(s); err == nil {
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

// Limit is the effective limit in bytes (Effective without its source).
func Limit() int64 {
	v, _ := Effective()
	return v
}

// Parse parses a size such as "512MiB", "4G", "2.5GB" or "1000000"
// (bytes). The suffixes K, M, G and T (with or without a trailing "B" or
// "iB", any case) are powers of 1024. The result must be positive; an
// error is a *errs.ParamError.
func Parse(s string) (int64, error) {
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
		return 0, &errs.ParamError{Name: "memory limit", Value: s, Want: "a positive size such as 512MiB, 4GiB or a number of bytes"}
	}
	return int64(b), nil
}

// Check returns a *errs.TooLargeError, with the advice hint, if a rows x
// cols float64 matrix named what would exceed the limit.
func Check(what string, rows, cols int, hint string) error {
	need := float64(rows) * float64(cols) * 8
	if lim := Limit(); need > float64(lim) {
		return &errs.TooLargeError{What: what, Rows: rows, Cols: cols, Bytes: need, Limit: lim, Hint: hint}
	}
	return nil
}
