package distreg

import (
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab/distreg"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/papers/internal/papertest"
)

func TestEntropy(t *testing.T) {
	bags, err := EntropyBags(4, 30, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if bags.Nrow() != 120 || strings.Join(bags.Names(), ",") != "bag,x1,x2,y,angle" {
		t.Fatalf("bags %d x %v", bags.Nrow(), bags.Names())
	}
	p := distreg.NewEntropyProblem(1)
	a, y := bags.Col("angle").Float(), bags.Col("y").Float()
	if !papertest.Near(y[31], p.Entropy(a[31])) {
		t.Errorf("label %v, entropy %v", y[31], p.Entropy(a[31]))
	}
	m, err := frames.FitBags(bags, frames.BagSpec{Bag: "bag", Target: "y", Exclude: []string{"angle"}, Sigma: 0.5, Lambda: 1e-3})
	if err != nil || m.Bags != 4 {
		t.Fatalf("FitBags on EntropyBags: %v", err)
	}
	df, err := EntropyBenchmark(EntropySpec{Points: []int{5, 20}, Bags: []int{10}, Test: 20, MaxIter: 500, Checkpoints: 5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if df.Nrow() != 4 {
		t.Fatalf("%d rows, want 2 methods x 2 bag sizes", df.Nrow())
	}
	for _, v := range df.Col("test_rmse").Float() {
		if !(v > 0 && v < 2) {
			t.Errorf("test RMSE %v", v)
		}
	}
	if _, err := EntropyBenchmark(EntropySpec{Methods: []string{"gp"}}); err == nil {
		t.Error("unknown method accepted")
	}
}
