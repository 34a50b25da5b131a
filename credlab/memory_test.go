package credlab

import (
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestMemoryRefusedBeforeAllocation checks that NKRLS with m = 60000
// centers on 200,000 rows is refused with a *TooLargeError naming the size
// and the limit, before its m x m blocks (about 86 GB) are allocated.
func TestMemoryRefusedBeforeAllocation(t *testing.T) {
	defer func(v int64) { MemoryLimit = v }(MemoryLimit)
	MemoryLimit = 1 << 30
	rng := newRNG(3)
	x := randData(rng, 200000, 2, 1)
	y := make([]float64, 200000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := NKRLS(context.Background(), x, y, NKRLSConfig{Kernel: GaussianKernel{Sigma: 1}, Lambda: 1e-3, Nystrom: NystromConfig{M: 60000}})
	runtime.ReadMemStats(&after)
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("got %v (%T), want a *TooLargeError", err, err)
	}
	if tl.Limit != 1<<30 || tl.Bytes < 60000*200000*8*0.8 || tl.Hint == "" {
		t.Errorf("TooLargeError %+v: want the limit 1 GiB, about 96 GB and a hint", tl)
	}
	// The split copies the 200000 x 2 input (6.4 MB); the blocks would be
	// gigabytes.
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("allocated %d bytes before refusing", grew)
	}
	ny := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}
	if _, err := NewNystrom(GaussianKernel{Sigma: 1}, x, ny, 0); err != nil {
		t.Errorf("NewNystrom with 12 centers: %v", err)
	}
	MemoryLimit = 1000
	if _, err := NewNystrom(GaussianKernel{Sigma: 1}, x, ny, 0); !errors.As(err, &tl) {
		t.Errorf("NewNystrom over a 1000-byte limit (its 12 x 12 K_mm): %v, want a *TooLargeError", err)
	}
	if _, err := NewRandomFourier(2, 1000, 1, 1); !errors.As(err, &tl) {
		t.Errorf("NewRandomFourier over a 1000-byte limit: %v, want a *TooLargeError", err)
	}
	if _, err := NewReLUNetwork(2, []int{1000}, 1); !errors.As(err, &tl) {
		t.Errorf("NewReLUNetwork over a 1000-byte limit: %v, want a *TooLargeError", err)
	}
}

func TestMemoryLimitFromEnvironment(t *testing.T) {
	defer func(v int64) { MemoryLimit = v }(MemoryLimit)
	MemoryLimit = 0
	t.Setenv("CREDLAB_MEMORY_LIMIT", "2GiB")
	if v, src := EffectiveMemoryLimit(); v != 2<<30 || src != "CREDLAB_MEMORY_LIMIT" {
		t.Errorf("EffectiveMemoryLimit = %d from %s, want 2 GiB from the environment", v, src)
	}
	MemoryLimit = 5
	if v, _ := EffectiveMemoryLimit(); v != 5 {
		t.Errorf("MemoryLimit does not override the environment: %d", v)
	}
}

func TestParseMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
	}{{"1024", 1024}, {"4k", 4096}, {"512MiB", 512 << 20}, {"2G", 2 << 30}, {"1.5GB", 3 << 29}, {" 1 TiB ", 1 << 40}} {
		if v, err := ParseMemoryLimit(c.in); err != nil || v != c.want {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v, want %d", c.in, v, err, c.want)
		}
	}
	for _, bad := range []string{"", "-1", "0", "abc", "1e30T", "NaN", "Inf"} {
		var pe *ParamError
		if _, err := ParseMemoryLimit(bad); !errors.As(err, &pe) {
			t.Errorf("ParseMemoryLimit(%q): %v, want a *ParamError", bad, err)
		}
	}
}
