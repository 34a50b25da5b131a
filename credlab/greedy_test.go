package credlab

import (
	"context"
	"reflect"
	"testing"
)

// refGreedy is GSx written out: the row nearest the centroid, then each
// row maximising the distance to its nearest chosen row.
func refGreedy(x [][]float64, budget int) []int {
	n, d := len(x), len(x[0])
	c := make([]float64, d)
	for _, r := range x {
		for k, v := range r {
			c[k] += v / float64(n)
		}
	}
	best := 0
	for j := range x {
		if refSqDist(x[j], c) < refSqDist(x[best], c) {
			best = j
		}
	}
	out := []int{best}
	for len(out) < budget {
		far, fd := -1, -1.0
		for j := range x {
			near := -1.0
			for _, i := range out {
				if dd := refSqDist(x[j], x[i]); near < 0 || dd < near {
					near = dd
				}
			}
			if near > fd {
				far, fd = j, near
			}
		}
		out = append(out, far)
	}
	return out
}

func TestGreedySelector(t *testing.T) {
	ctx := context.Background()
	pool := randData(crRNG(31), 300, 3, 1)
	rows := make([][]float64, 300)
	for i := range rows {
		rows[i] = pool.RawRowView(i)
	}
	want := refGreedy(rows, 25)
	var got *Selection
	var err error
	withProcs(3, func() { got, err = GreedySelector{}.Select(ctx, pool, 25, 1) })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Index, want) {
		t.Fatalf("GSx rows %v, want %v", got.Index, want)
	}
	for i := range got.Weight {
		if got.Weight[i] != 1 || got.Prob[i] != 1 {
			t.Fatalf("weight %v prob %v, want 1", got.Weight[i], got.Prob[i])
		}
	}
	// Two batches give the one-shot sequence.
	first, _ := GreedySelector{}.Select(ctx, pool, 10, 1)
	both, err := GreedySelector{Previous: first}.Select(ctx, pool, 15, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(both.Index, want) || both.Batch[9] != 0 || both.Batch[10] != 1 {
		t.Errorf("two batches %v (batches %v), want %v", both.Index, both.Batch, want)
	}
	_, err = GreedySelector{Previous: both}.Select(ctx, pool, 276, 2)
	wantErrKind(t, "budget above the unlabeled rows", err, paramErr("budget", 276))
	_, err = GreedySelector{Previous: &Selection{Index: []int{-1}}}.Select(ctx, pool, 2, 2)
	wantErrKind(t, "labeled row outside the pool", err, paramErr("previous row", -1))
}
