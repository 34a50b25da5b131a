package sgm

import (
	"context"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/credlab/credlab/papers/internal/papertest"
	"gonum.org/v1/gonum/mat"
)

// synthBreast is a separable-ish stand-in for the breast cancer data.
func synthBreast(string) (*mat.Dense, []float64, error) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(80, 4, nil)
	y := make([]float64, 80)
	for i := range y {
		if i%3 == 0 {
			y[i] = 1
		}
		for j := 0; j < 4; j++ {
			x.Set(i, j, 3*y[i]+rng.NormFloat64()*float64(j+1))
		}
	}
	return x, y, nil
}

func TestReproductionSmall(t *testing.T) {
	cfg := defaultConfig(true)
	cfg.M, cfg.Population, cfg.Trials, cfg.MaxPasses, cfg.Points = 36, 150, 3, 300, 9
	cfg.Splits, cfg.BCMaxPass, cfg.BCPoints = 2, 40, 5
	cfg.LoadBreast = synthBreast
	cfg.Command = "test"
	out := t.TempDir()
	if err := reproduce(context.Background(), out, cfg, io.Discard); err != nil {
		t.Fatal(err)
	}
	rows := papertest.ReadCSV(t, filepath.Join(out, "fig1_decomposition.csv"))
	if len(rows) != 1+3*9 || rows[0][4] != "total" {
		t.Fatalf("fig1 CSV has %d rows, header %v", len(rows), rows[0])
	}
	for _, r := range rows[1:] {
		var v [5]float64
		for i := range v {
			v[i], _ = strconv.ParseFloat(r[4+i], 64)
		}
		total, bias, sv, cv := v[0], v[1], v[2], v[3]
		// E_J total <= 2 bias + 2 sample variance + computational variance
		// (eq. 16) holds for the trial averages too, with slack for J.
		if !(total <= 2*bias+2*sv+cv+1e-9) || bias < 0 || sv < 0 || cv < 0 {
			t.Errorf("row %v violates the decomposition", r)
		}
		if r[0] == "batch" && cv != 0 {
			t.Errorf("batch GD has computational variance %g", cv)
		}
	}
	bc := papertest.ReadCSV(t, filepath.Join(out, "fig2_breast_cancer.csv"))
	if len(bc) != 1+3*5 {
		t.Fatalf("fig2 CSV has %d rows", len(bc))
	}
	last, _ := strconv.ParseFloat(bc[len(bc)-1][6], 64)
	if !(last < 0.2) {
		t.Errorf("batch GD test error %g on separable data", last)
	}
	papertest.CheckReport(t, filepath.Join(out, "reproductions-sgm.md"), "Figure 1", "Figure 2", "sigma = 0.2", "computational variance", "U-shaped")
}

func TestReproductionHelpers(t *testing.T) {
	if !uShape([]float64{3, 2, 1, 2, 3}) || uShape([]float64{3, 2, 1}) || uShape([]float64{1, 1.05, 2}) {
		t.Error("U-shape check")
	}
}
