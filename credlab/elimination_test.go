package credlab

import (
	"math"
	"reflect"
	"slices"
	"testing"
)

// sortDecreasing orders the rows with q > 0 by decreasing q, ties by row,
// as a comparison sort does, across magnitudes that differ in every byte
// of the key.
func TestSortDecreasing(t *testing.T) {
	rng := crRNG(4)
	q := make([]float64, 3000)
	for j := range q {
		switch j % 5 {
		case 0:
			q[j] = 0
		case 1:
			q[j] = 0.25 // ties
		default:
			q[j] = math.Ldexp(rng.Float64(), -rng.IntN(60))
		}
	}
	q[7] = math.SmallestNonzeroFloat64
	var want []int
	for j, v := range q {
		if v > 0 {
			want = append(want, j)
		}
	}
	slices.SortStableFunc(want, func(a, b int) int {
		switch {
		case q[a] > q[b]:
			return -1
		case q[a] < q[b]:
			return 1
		}
		return 0
	})
	order, qs := sortDecreasing(q)
	if !reflect.DeepEqual(order, want) {
		t.Fatal("order differs from a stable comparison sort")
	}
	for i, j := range order {
		if qs[i] != q[j] {
			t.Fatalf("qs[%d] = %v, want q[%d] = %v", i, qs[i], j, q[j])
		}
	}
	if o, s := sortDecreasing([]float64{0, 0}); len(o) != 0 || len(s) != 0 {
		t.Errorf("no positive q: %v %v", o, s)
	}
}
