package credbeam

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// fixedCenters is a CenterSampler returning given rows.
type fixedCenters []int

func (f fixedCenters) SampleCenters(x *mat.Dense, m int, seed uint64) ([]int, error) {
	return append([]int(nil), f[:m]...), nil
}

// TestNystromFitPrism fits NKRLS (lambda fixed and chosen on validation)
// and NYTRO on Prism from 200,000 rows in 16 shards and compares with the
// in-memory fits on the same split and centers.
func TestNystromFitPrism(t *testing.T) {
	n, d, k, m := 200_000, 5, 16, 100
	if testing.Short() {
		n = 20_000
	}
	dir := t.TempDir()
	p := writePool(t, dir, n, d, k, 2)
	base := NystromSpec{Spec: Spec{Columns: p.cols, Target: "y"}, M: m, Sigma: 1.2, Seed: 5}
	fixed, chosen, nytro := base, base, base
	fixed.Lambda = 1e-4
	nytro.Method, nytro.Iter = "nytro", 40

	pipe, s := beam.NewPipelineWithRoot()
	files := beam.CreateList(s, p.files)
	for name, cfg := range map[string]NystromSpec{"fixed": fixed, "chosen": chosen, "nytro": nytro} {
		out, err := NystromFit(s, files, cfg)
		if err != nil {
			t.Fatal(err)
		}
		WriteText(s, out.Model, filepath.Join(dir, name+".json"))
	}
	if err := run(t, pipe); err != nil {
		t.Fatal(err)
	}
	load := func(name string) *ModelFile {
		b, err := os.ReadFile(filepath.Join(dir, name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		mf, err := ParseModel(b)
		if err != nil {
			t.Fatal(err)
		}
		return mf
	}

	// In memory: the same split and centers.
	var tr, va []int
	for i := range p.file {
		if IsValidation(base.Seed, 0.2, p.file[i], p.line[i]) {
			va = append(va, i)
		} else {
			tr = append(tr, i)
		}
	}
	order := append([]int(nil), tr...) // positions among training rows, by hash
	pos := map[int]int{}
	for k, i := range tr {
		pos[i] = k
	}
	hash := func(i int) uint64 { return RowHash(base.Seed, PurposeCenter, p.file[i], p.line[i]) }
	sort.Slice(order, func(a, b int) bool { return hash(order[a]) < hash(order[b]) })
	centers := make(fixedCenters, m)
	for c := range m {
		centers[c] = pos[order[c]]
	}
	sub := func(idx []int) (*mat.Dense, []float64) {
		x := mat.NewDense(len(idx), d, nil)
		y := make([]float64, len(idx))
		for k, i := range idx {
			x.SetRow(k, p.x.RawRowView(i))
			y[k] = p.y[i]
		}
		return x, y
	}
	xt, yt := sub(tr)
	xv, yv := sub(va)
	ctx := context.Background()
	kern := credlab.GaussianKernel{Sigma: base.Sigma}
	want, err := credlab.NKRLS(ctx, xt, yt, credlab.NKRLSConfig{Kernel: kern, Lambda: fixed.Lambda, Holdout: credlab.Holdout{None: true},
		Nystrom: credlab.NystromConfig{M: m, Sampler: centers}})
	if err != nil {
		t.Fatal(err)
	}
	got := load("fixed")
	if got.TrainRows != len(tr) || got.ValRows != len(va) || got.Method != "NKRLS" {
		t.Fatalf("model of %d training and %d validation rows by %s; want %d, %d, NKRLS", got.TrainRows, got.ValRows, got.Method, len(tr), len(va))
	}
	closeCoef(t, "NKRLS, lambda fixed", got, want.Model, 1e-8)

	// Lambda chosen on validation, and NYTRO: in-memory statistics of the split.
	ny, err := credlab.NewNystrom(kern, xt, centers, 0)
	if err != nil {
		t.Fatal(err)
	}
	gt, _ := credlab.NewGramStats(ny.Rank())
	gv, _ := credlab.NewGramStats(ny.Rank())
	if err := gt.AddRows(ctx, ny, xt, yt, nil); err != nil {
		t.Fatal(err)
	}
	if err := gv.AddRows(ctx, ny, xv, yv, nil); err != nil {
		t.Fatal(err)
	}
	fc, err := credlab.RidgeGram(ctx, gt, gv, credlab.GramFitConfig{Features: ny})
	if err != nil {
		t.Fatal(err)
	}
	gotc := load("chosen")
	if gotc.Lambda != fc.Lambda {
		t.Errorf("lambda chosen %g, in memory %g", gotc.Lambda, fc.Lambda)
	}
	closeCoef(t, "NKRLS, lambda chosen", gotc, fc.Model, 1e-8)
	fn, err := credlab.GradientGram(ctx, gt, gv, credlab.GramFitConfig{Features: ny, Iter: credlab.IterConfig{Iter: nytro.Iter}})
	if err != nil {
		t.Fatal(err)
	}
	closeCoef(t, "NYTRO", load("nytro"), fn.Model, 1e-8)
}

// closeCoef compares a model file's centers and coefficients with want's.
func closeCoef(t *testing.T, what string, got *ModelFile, want *credlab.Model, tol float64) {
	t.Helper()
	if len(got.Coef) != len(want.Coef) {
		t.Fatalf("%s: %d coefficients, want %d", what, len(got.Coef), len(want.Coef))
	}
	gm, err := got.Model()
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(gm.Centers, want.Centers) {
		t.Fatalf("%s: the centers differ from the in-memory fit's", what)
	}
	scale, diff := 0.0, 0.0
	for i := range want.Coef {
		scale = max(scale, math.Abs(want.Coef[i]))
		diff = max(diff, math.Abs(got.Coef[i]-want.Coef[i]))
	}
	t.Logf("%s: max |coef difference| / max |coef| = %.3g", what, diff/scale)
	if diff > tol*scale {
		t.Errorf("%s: coefficients differ by %.3g relative, want <= %g", what, diff/scale, tol)
	}
}

// TestCenterFnKeepsSmallest checks centerFn's shard candidates against a
// full sort of the shard's row hashes, for several m and shard sizes.
func TestCenterFnKeepsSmallest(t *testing.T) {
	type tc struct {
		rows, m int
		seed    uint64
	}
	var cases []tc
	for seed := range uint64(40) { // the order rows arrive in matters: many hash seeds
		cases = append(cases, tc{20, 2, seed}, tc{200, 10, seed})
	}
	cases = append(cases, tc{3000, 100, 1})
	dir := t.TempDir()
	pools := map[int]*pool{}
	for _, c := range cases {
		p := pools[c.rows]
		if p == nil {
			sub := filepath.Join(dir, fmt.Sprint(c.rows))
			if err := os.Mkdir(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			p = writePool(t, sub, c.rows, 2, 1, 5)
			pools[c.rows] = p
		}
		var got Centers
		f := &centerFn{Spec: Spec{Columns: p.cols, Target: "y"}, M: c.m, Seed: c.seed, Block: 64}
		if err := f.Setup(); err != nil {
			t.Fatal(err)
		}
		if err := f.ProcessElement(context.Background(), p.files[0], func(cs Centers) { got = cs }); err != nil {
			t.Fatal(err)
		}
		hashes := make([]uint64, c.rows)
		for i := range hashes {
			hashes[i] = RowHash(c.seed, PurposeCenter, p.files[0], i+2) // data rows start on line 2
		}
		slices.Sort(hashes)
		if len(got.Items) != c.m {
			t.Fatalf("rows %d, m %d: %d candidates", c.rows, c.m, len(got.Items))
		}
		for i, it := range got.Items {
			if it.Hash != hashes[i] {
				t.Fatalf("rows %d, m %d, seed %d: candidate %d has hash %d, the %d-th smallest is %d", c.rows, c.m, c.seed, i, it.Hash, i, hashes[i])
			}
		}
	}
}
