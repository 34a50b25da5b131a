package frames

import (
	"testing"
)

// TestSelectScoresBySize checks SelectSpec.FeatureMap "": exact scores up
// to ExactScoreRows rows, BLESS beyond (no N x N matrix).
func TestSelectScoresBySize(t *testing.T) {
	for _, c := range []struct {
		n    int
		same string
	}{{200, "exact"}, {ExactScoreRows + 1, "bless"}} {
		pool := regFrame(t, c.n, 5).Select([]string{"a", "b"})
		def, err := Select(pool, 20, SelectSpec{Sigma: 0.5, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		named, err := Select(pool, 20, SelectSpec{Sigma: 0.5, Seed: 2, FeatureMap: c.same})
		if err != nil {
			t.Fatal(err)
		}
		if snapshot(def) != snapshot(named) {
			t.Errorf("%d rows: the default selection differs from FeatureMap %q", c.n, c.same)
		}
	}
}
