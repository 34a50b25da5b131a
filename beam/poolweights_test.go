package credbeam

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// TestPoolWeightsPrism: the pool weights of labeled rows, summed over one
// or four shards, are credlab.PoolWeights of the whole pool in memory, and
// WritePoolWeights puts each beside its row of the labeled file (a row
// listed twice gets its weight twice; an old pool_weight is replaced).
func TestPoolWeightsPrism(t *testing.T) {
	scales := []float64{0.7, 1.3}
	for _, shards := range []int{1, 4} {
		dir := t.TempDir()
		p := writePool(t, dir, 200, 2, shards, 9)
		var rows []RowID
		var vals [][]float64
		var b strings.Builder
		b.WriteString("file,line,x0,x1,y,pool_weight\n")
		lab := mat.NewDense(25, 2, nil)
		for k := range 25 {
			i := (k * 37) % 200
			rows = append(rows, RowID{p.file[i], p.line[i]})
			vals = append(vals, slices.Clone(p.x.RawRowView(i)))
			lab.SetRow(k, p.x.RawRowView(i))
			fmt.Fprintf(&b, "%s,%d,%s,%s,%s,9\n", p.file[i], p.line[i], strconv.FormatFloat(p.x.At(i, 0), 'g', -1, 64), strconv.FormatFloat(p.x.At(i, 1), 'g', -1, 64), strconv.FormatFloat(p.y[i], 'g', -1, 64))
		}
		fmt.Fprintf(&b, "%s,%d,0,0,0,9\n", rows[3].File, rows[3].Line) // listed twice
		labPath, out := filepath.Join(dir, "labeled.csv"), filepath.Join(dir, "weighted.csv")
		writeText(t, labPath, b.String())
		want, err := credlab.PoolWeights(context.Background(), p.x, lab, credlab.GaussianKernel{Sigma: 1, Scales: scales})
		if err != nil {
			t.Fatal(err)
		}
		pipe, s := beam.NewPipelineWithRoot()
		counts, err := PoolWeights(s, beam.CreateList(s, p.files), PoolWeightsConfig{Spec: Spec{Columns: p.cols, Target: "y"}, Labeled: rows, LabeledValues: vals, Scales: scales})
		if err != nil {
			t.Fatal(err)
		}
		WritePoolWeights(s, counts, labPath, out, rows)
		if err := run(t, pipe); err != nil {
			t.Fatal(err)
		}
		recs := readCSV(t, out)
		if strings.Join(recs[0], ",") != "file,line,x0,x1,y,pool_weight" || len(recs) != 27 {
			t.Fatalf("%d shards: header %v, %d records", shards, recs[0], len(recs))
		}
		for k, rec := range recs[1:] {
			w, err := strconv.ParseFloat(rec[5], 64)
			if k == 25 {
				k = 3
			}
			if err != nil || math.Abs(w-want[k]) > 1e-12*want[k] {
				t.Errorf("%d shards, labeled row %d: pool weight %q, in memory %v", shards, k, rec[5], want[k])
			}
		}
	}
	bad := []PoolWeightsConfig{{Spec: Spec{Columns: []string{"x0", "y"}, Target: "y"}},
		{Spec: Spec{Columns: []string{"x0", "y"}, Target: "y"}, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1}}, Scales: []float64{1, 2}},
		{Spec: Spec{Columns: []string{"x0", "y"}, Target: "y"}, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1, 2}}, Scales: []float64{1}},
		{Spec: Spec{Columns: []string{"x0", "y"}, Target: "y"}, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1}}, Scales: []float64{math.NaN()}}}
	for _, c := range bad {
		_, s := beam.NewPipelineWithRoot()
		if _, err := PoolWeights(s, beam.CreateList(s, []string{"a"}), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
