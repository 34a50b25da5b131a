package credbeam

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// roundPool rounds p's inputs to whole numbers, so that distances tie,
// and writes its shards again.
func roundPool(t *testing.T, p *pool) {
	t.Helper()
	r, d := p.x.Dims()
	for i := range r {
		for j := range d {
			p.x.Set(i, j, math.Round(2*p.x.At(i, j)))
		}
	}
	for _, name := range p.files {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w := csv.NewWriter(f)
		w.Write(p.cols)
		for i := range r {
			if p.file[i] != name {
				continue
			}
			rec := []string{}
			for j := range d {
				rec = append(rec, strconv.FormatFloat(p.x.At(i, j), 'g', -1, 64))
			}
			w.Write(append(rec, strconv.FormatFloat(p.y[i], 'g', -1, 64)))
		}
		w.Flush()
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPoolWeightsPrism: the pool weights of labeled rows, summed over one
// or four shards, are those of credlab.NearestCounts on the whole pool in
// memory, also where distances tie (whole numbers), and equal
// credlab.PoolWeights where they do not; WritePoolWeights puts each beside
// its row of the labeled file (a row listed twice gets its weight twice;
// an old pool_weight is replaced). Labeled rows that are not the pool's
// fail the pipeline and write nothing.
func TestPoolWeightsPrism(t *testing.T) {
	scales := []float64{0.7, 1.3}
	ctx := context.Background()
	for _, ints := range []bool{false, true} {
		for _, shards := range []int{1, 4} {
			dir := t.TempDir()
			p := writePool(t, dir, 200, 2, shards, 9)
			if ints {
				roundPool(t, p)
			}
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
			k := credlab.GaussianKernel{Sigma: 1, Scales: scales}
			c, err := credlab.NearestCounts(ctx, p.x, lab, k)
			if err != nil {
				t.Fatal(err)
			}
			want, err := credlab.PoolWeightsFromCounts(c, 200)
			if err != nil {
				t.Fatal(err)
			}
			if !ints {
				if mem, err := credlab.PoolWeights(ctx, p.x, lab, k); err != nil || !slices.Equal(mem, want) {
					t.Fatalf("PoolWeights %v, %v; from NearestCounts %v", mem, err, want)
				}
			}
			cfg := PoolWeightsSpec{Spec: Spec{Columns: p.cols, Target: "y"}, Labeled: rows, LabeledValues: vals, Scales: scales}
			pipe, s := beam.NewPipelineWithRoot()
			counts, err := PoolWeights(s, beam.CreateList(s, p.files), cfg)
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
					t.Errorf("whole numbers %v, %d shards, labeled row %d: pool weight %q, in memory %v", ints, shards, k, rec[5], want[k])
				}
			}
			if ints || shards == 1 {
				continue
			}
			// A labeled row with other values, and one of another shard.
			for _, bad := range []struct {
				rows []RowID
				vals [][]float64
				want string
			}{
				{rows, append(slices.Clone(vals[:24]), []float64{100, 100}), "do not come from these shards"},
				{append(slices.Clone(rows[:24]), RowID{"/elsewhere/other.csv", 2}), vals, "are not rows of the pool's shards"},
			} {
				bc := cfg
				bc.Labeled, bc.LabeledValues = bad.rows, bad.vals
				bout := filepath.Join(dir, "bad.csv")
				pipe, s := beam.NewPipelineWithRoot()
				counts, err := PoolWeights(s, beam.CreateList(s, p.files), bc)
				if err != nil {
					t.Fatal(err)
				}
				WritePoolWeights(s, counts, labPath, bout, bad.rows)
				wantErr(t, run(t, pipe), bad.want)
				if _, err := os.Stat(bout); err == nil {
					t.Errorf("%s: output written", bad.want)
				}
			}
		}
	}
	spec := Spec{Columns: []string{"x0", "y"}, Target: "y"}
	for _, c := range []PoolWeightsSpec{{Spec: spec},
		{Spec: spec, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1}}, Scales: []float64{1, 2}},
		{Spec: spec, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1, 2}}, Scales: []float64{1}},
		{Spec: spec, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1}}, Scales: []float64{math.NaN()}},
		{Spec: spec, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{math.Inf(1)}}, Scales: []float64{1}}} {
		_, s := beam.NewPipelineWithRoot()
		if _, err := PoolWeights(s, beam.CreateList(s, []string{"a"}), c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}
