package viz

import (
	"strings"
	"testing"
)

func TestSelectionScatterPool(t *testing.T) {
	x := make([]float64, 1000)
	y := make([]float64, 1000)
	for i := range x {
		x[i], y[i] = float64(i%37), float64(i%11)
	}
	fig, err := SelectionScatterPool(x, y, 100, []int{5, 900, 900}, []float64{1, 2, 3}, Options{Title: "sample"})
	if err != nil {
		t.Fatal(err)
	}
	svg := fig.SVG()
	for _, want := range []string{"pool (100 of 1000 rows shown)", "chosen (3 draws, 2 rows)", "sample"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	all, err := SelectionScatterPool(x[:50], y[:50], 0, []int{1}, nil, Options{})
	if err != nil || !strings.Contains(all.SVG(), "pool (50 rows)") {
		t.Errorf("whole pool: %v", err)
	}
	if _, err := SelectionScatterPool(x, y, 10, []int{1000}, nil, Options{}); err == nil {
		t.Error("row outside the pool accepted")
	}
	if _, err := SelectionScatterPool(x, y, 10, []int{1}, []float64{-1}, Options{}); err == nil {
		t.Error("negative weight accepted")
	}
}
