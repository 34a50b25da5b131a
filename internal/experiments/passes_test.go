package experiments

import (
	"slices"
	"testing"

	"github.com/credlab/credlab/credlab"
)

func TestPassGrid(t *testing.T) {
	if g := PassGrid(100, 5); !slices.Equal(g, []int{1, 3, 10, 32, 100}) {
		t.Errorf("PassGrid(100, 5) = %v", g)
	}
	if g := PassGrid(3, 10); !slices.Equal(g, []int{1, 2, 3}) {
		t.Errorf("PassGrid(3, 10) = %v", g)
	}
}

func TestPassIters(t *testing.T) {
	nominal, iters := PassIters([]int{1, 2, 3, 10}, 10, 4)
	if !slices.Equal(nominal, []int{1, 2, 3, 10}) || !slices.Equal(iters, []int{3, 5, 8, 25}) {
		t.Errorf("PassIters: %v, %v", nominal, iters)
	}
	// With b > m, passes 1 and 2 end at the same iteration.
	nominal, iters = PassIters([]int{1, 2, 3}, 2, 5)
	if !slices.Equal(nominal, []int{1, 3}) || !slices.Equal(iters, []int{1, 2}) {
		t.Errorf("PassIters with b > m: %v, %v", nominal, iters)
	}
	for p, want := range map[credlab.SGMPreset]int{credlab.SGMSimple: 1, credlab.SGMBatch: 50, credlab.SGMMiniBatch: 8} {
		if b := BatchOf(p, 50); b != want {
			t.Errorf("BatchOf(%v, 50) = %d, want %d", p, b, want)
		}
	}
}
