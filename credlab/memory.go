package credlab

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
)

// MemoryLimit is the largest dense matrix, in bytes, that credlab allocates.
// Zero means the default: three quarters of the machine's physical memory
// (read from /proc/meminfo; 8 GiB where that cannot be read).
var MemoryLimit int64

var (
	physOnce sync.Once
	physMem  int64
)

func memoryLimit() int64 {
	if MemoryLimit > 0 {
		return MemoryLimit
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
	return physMem / 4 * 3
}

// checkAlloc returns an error if a rows x cols float64 matrix named what
// would exceed the memory limit. The message names the size and suggests
// Nyström subsampling.
func checkAlloc(what string, rows, cols int) error {
	need := float64(rows) * float64(cols) * 8
	if lim := memoryLimit(); need > float64(lim) {
		return fmt.Errorf("credlab: %s of %d x %d needs %s, over the %s memory limit; use Nyström (NKRLS or NYTRO) with m << %d centers, or raise credlab.MemoryLimit",
			what, rows, cols, byteSize(need), byteSize(float64(lim)), rows)
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
