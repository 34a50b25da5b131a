package sgm

import (
	"slices"
	"testing"

	"github.com/credlab/credlab/credlab"
)

func TestPassGridLog(t *testing.T) {
	if g := passGridLog(100, 5); !slices.Equal(g, []int{1, 3, 10, 32, 100}) {
		t.Errorf("passGridLog(100, 5) = %v", g)
	}
	if g := passGridLog(3, 10); !slices.Equal(g, []int{1, 2, 3}) {
		t.Errorf("passGridLog(3, 10) = %v", g)
	}
}

func TestPassIters(t *testing.T) {
	nominal, iters := passIters([]int{1, 2, 3, 10}, 10, 4)
	if !slices.Equal(nominal, []int{1, 2, 3, 10}) || !slices.Equal(iters, []int{3, 5, 8, 25}) {
		t.Errorf("passIters: %v, %v", nominal, iters)
	}
	// With b > m, passes 1 and 2 end at the same iteration.
	nominal, iters = passIters([]int{1, 2, 3}, 2, 5)
	if !slices.Equal(nominal, []int{1, 3}) || !slices.Equal(iters, []int{1, 2}) {
		t.Errorf("passIters with b > m: %v, %v", nominal, iters)
	}
	for p, want := range map[credlab.SGMPreset]int{credlab.SGMSimple: 1, credlab.SGMBatch: 50, credlab.SGMMiniBatch: 8} {
		if b := batchOf(p, 50); b != want {
			t.Errorf("batchOf(%v, 50) = %d, want %d", p, b, want)
		}
	}
}
