package credbeam

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

// selectedRows reads WriteSelected's file as (file, line) pairs in rank
// order per shard.
func selectedRows(t *testing.T, path string) []RowID {
	t.Helper()
	var out []RowID
	for _, r := range readCSV(t, path)[1:] {
		l, err := strconv.Atoi(r[1])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, RowID{r[0], l})
	}
	return out
}

// TestLCMDSamplePrism checks LCMDSample on Prism: on one shard it is
// credlab's LCMD on the whole pool with the same Nyström centers, the
// audit rows and the earlier audit rows left out of it; on four it
// chooses distinct unlabeled rows, the same in every run. On both, the
// audit sample is the unlabeled rows of smallest audit hash, weighted by
// the unlabeled rows over their number.
func TestLCMDSamplePrism(t *testing.T) {
	const n, d, m, budget, a = 600, 3, 40, 20, 2 // a: the default share of the budget
	for _, c := range []struct {
		shards int
		kernel string
		sigma  float64
	}{{1, "", 1}, {4, "", 1}, {1, "matern32", 3}, {1, "manhattan", 2}} {
		shards := c.shards
		dir := t.TempDir()
		p := writePool(t, dir, n, d, shards, 3)
		var labeled, audited []RowID
		isLabeled := make([]bool, n)
		for i := 0; i < n; i += 97 {
			labeled = append(labeled, RowID{p.file[i], p.line[i]})
			isLabeled[i] = true
		}
		audited = labeled[2:3] // an earlier audit row: hidden from LCMD
		cfg := LCMDSpec{Spec: Spec{Columns: p.cols, Target: "y"}, Budget: budget, M: m, Kernel: c.kernel, Sigma: c.sigma, Seed: 4, Labeled: labeled, Audited: audited}
		if cfg.AuditSize() != a {
			t.Fatalf("AuditSize %d, want %d", cfg.AuditSize(), a)
		}
		pipe, s := beam.NewPipelineWithRoot()
		files := beam.CreateList(s, p.files)
		for _, name := range []string{"a.csv", "b.csv"} {
			sel, err := LCMDSample(s, files, cfg)
			if err != nil {
				t.Fatal(err)
			}
			WriteSelected(s, sel, filepath.Join(dir, name), p.cols)
		}
		if err := run(t, pipe); err != nil {
			t.Fatal(err)
		}
		got, again := selectedRows(t, filepath.Join(dir, "a.csv")), selectedRows(t, filepath.Join(dir, "b.csv"))
		// The audit sample: the a unlabeled rows of smallest audit hash.
		var unl []int
		for i := range n {
			if !isLabeled[i] {
				unl = append(unl, i)
			}
		}
		sort.Slice(unl, func(x, y int) bool {
			return RowHash(4, PurposeAudit, p.file[unl[x]], p.line[unl[x]]) < RowHash(4, PurposeAudit, p.file[unl[y]], p.line[unl[y]])
		})
		hidden := map[RowID]bool{audited[0]: true}
		wantAudit := map[RowID]bool{}
		for _, i := range unl[:a] {
			hidden[RowID{p.file[i], p.line[i]}] = true
			wantAudit[RowID{p.file[i], p.line[i]}] = true
		}
		recs := readCSV(t, filepath.Join(dir, "a.csv"))
		ai := slices.Index(recs[0], "audit")
		if ai < 0 {
			t.Fatalf("%d shards: no audit column in %v", shards, recs[0])
		}
		var method []RowID // LCMD's rows
		for k, r := range recs[1:] {
			w, _ := strconv.ParseFloat(r[ai], 64)
			switch {
			case w == 0:
				method = append(method, got[k])
			case !wantAudit[got[k]] || math.Abs(w-float64(len(unl))/a) > 1e-12:
				t.Errorf("%d shards: row %v has audit weight %g; want the rows %v with %g", shards, got[k], w, wantAudit, float64(len(unl))/a)
			}
		}
		if len(method) != budget-a {
			t.Errorf("%d shards: %d rows of LCMD, want %d", shards, len(method), budget-a)
		}
		if !slices.Equal(got, again) {
			t.Errorf("%d shards: two runs chose %v and %v", shards, got, again)
		}
		seen := map[RowID]bool{}
		for _, r := range labeled {
			seen[r] = true
		}
		for _, r := range got {
			if seen[r] {
				t.Errorf("%d shards: row %v chosen twice or already labeled", shards, r)
			}
			seen[r] = true
		}
		if len(got) != budget {
			t.Errorf("%d shards: %d rows, want %d", shards, len(got), budget)
		}
		if shards > 1 {
			continue
		}
		// The reference: LCMD on the pool without the audit rows, the
		// earlier ones included, the columns standardized over the M rows
		// of smallest hash.
		idx := make([]int, n)
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool {
			return RowHash(4, PurposeCenter, p.file[idx[a]], p.line[idx[a]]) < RowHash(4, PurposeCenter, p.file[idx[b]], p.line[idx[b]])
		})
		centers := mat.NewDense(m, d, nil)
		for k := range m {
			centers.SetRow(k, p.x.RawRowView(idx[k]))
		}
		scales := make([]float64, d)
		for j := range scales {
			scales[j] = 1 / stat.StdDev(mat.Col(nil, j, centers), nil)
		}
		k, err := kernelOf(c.kernel, c.sigma, scales)
		if err != nil {
			t.Fatal(err)
		}
		var keep, labIdx []int
		for i := range n {
			if !hidden[RowID{p.file[i], p.line[i]}] {
				if isLabeled[i] {
					labIdx = append(labIdx, len(keep))
				}
				keep = append(keep, i)
			}
		}
		xk, err := credlab.GatherRows(p.x, keep)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := credlab.BatchSelector{Method: credlab.MethodLCMD, Kernel: k, Previous: &credlab.Selection{Index: labIdx}}.Select(context.Background(), xk, budget-a, 4)
		if err != nil {
			t.Fatal(err)
		}
		var want []RowID
		for _, i := range ref.Index[len(labIdx):] {
			want = append(want, RowID{p.file[keep[i]], p.line[keep[i]]})
		}
		sort.Slice(want, func(a, b int) bool { return want[a].Line < want[b].Line })
		sorted := slices.Clone(method)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].Line < sorted[b].Line })
		if !slices.Equal(sorted, want) {
			t.Errorf("one shard, kernel %q: chose %v, want %v (credlab's LCMD on the pool)", c.kernel, sorted, want)
		}
	}
}

func TestLCMDSampleErrors(t *testing.T) {
	dir := t.TempDir()
	p := writePool(t, dir, 60, 2, 2, 5)
	spec := Spec{Columns: p.cols, Target: "y"}
	for _, c := range []struct {
		cfg  LCMDSpec
		want string
	}{
		{LCMDSpec{Spec: spec, Budget: 5, M: 10, Labeled: []RowID{{p.files[0], 900}}}, "line 900 is not a row of the pool's shards"},
		{LCMDSpec{Spec: spec, Budget: 70, M: 10}, "budget 70"},
		{LCMDSpec{Spec: spec, Budget: 59, M: 10, Labeled: []RowID{{p.file[0], p.line[0]}, {p.file[1], p.line[1]}}}, "budget 59: the pool has 58 rows not yet labeled"},
		// The pool's rows 0 and 1 labeled with their values, then swapped:
		// the labeled file is not of these shards.
		{LCMDSpec{Spec: spec, Budget: 5, M: 10, Labeled: []RowID{{p.file[0], p.line[0]}, {p.file[1], p.line[1]}},
			LabeledValues: [][]float64{p.x.RawRowView(1), p.x.RawRowView(0)}}, "do not come from these shards"},
	} {
		pipe, s := beam.NewPipelineWithRoot()
		sel, err := LCMDSample(s, beam.CreateList(s, p.files), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		WriteSelected(s, sel, filepath.Join(dir, "x.csv"), p.cols)
		wantErr(t, run(t, pipe), c.want)
	}
	// With their own values they pass.
	pipe, s := beam.NewPipelineWithRoot()
	sel, err := LCMDSample(s, beam.CreateList(s, p.files), LCMDSpec{Spec: spec, Budget: 5, M: 10, Labeled: []RowID{{p.file[0], p.line[0]}, {p.file[1], p.line[1]}},
		LabeledValues: [][]float64{p.x.RawRowView(0), p.x.RawRowView(1)}})
	if err != nil {
		t.Fatal(err)
	}
	WriteSelected(s, sel, filepath.Join(dir, "ok.csv"), p.cols)
	if err := run(t, pipe); err != nil {
		t.Errorf("labeled rows with their own values: %v", err)
	}
	for _, bad := range []LCMDSpec{{Spec: spec}, {Spec: spec, Budget: 3, M: -1}, {Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{}},
		{Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1}}}, {Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}}, LabeledValues: [][]float64{{1, math.NaN()}}}, {Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}, {"a", 2}}},
		{Spec: spec, Budget: 3, Audit: 0.6}, {Spec: spec, Budget: 3, Kernel: "matern32"}, {Spec: spec, Budget: 3, Kernel: "laplace", Sigma: 1}, {Spec: spec, Budget: 3, Audit: math.NaN()}, {Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}}, Audited: []RowID{{"a", 3}}}} {
		pipe, s := beam.NewPipelineWithRoot()
		_ = pipe
		if _, err := LCMDSample(s, beam.CreateList(s, p.files), bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func seqInts(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadLabeled(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.csv")
	spec := Spec{Columns: []string{"x0", "x1", "y"}, Target: "y"}
	ctx := context.Background()
	writeText(t, path, "file,line,row,x0,x1,y\na.csv,2,0,1,2,3\nb.csv,7,5,4,5,6\na.csv,2,0,1,2,3\n")
	lab, err := ReadLabeled(ctx, path, spec)
	if err != nil || !slices.Equal(lab.Rows, []RowID{{"a.csv", 2}, {"b.csv", 7}}) || !slices.Equal(lab.Y, []float64{3, 6}) || lab.X.At(1, 1) != 5 ||
		len(lab.Values) != 2 || !slices.Equal(lab.Values[1], []float64{4, 5}) {
		t.Errorf("got %+v, %v; want each row once with its features and label", lab, err)
	}
	if lab.Weighted {
		t.Error("rows without a selection weight read as weighted")
	}
	writeText(t, path, "file,line,row,draw,prob,weight,x0,x1,y\na.csv,2,0,0,0.1,1,1,2,3\nb.csv,7,5,1,0.2,2.5,4,5,6\n")
	if lab, err := ReadLabeled(ctx, path, spec); err != nil || !lab.Weighted {
		t.Errorf("a CRED draw's weights: %+v, %v; want Weighted", lab, err)
	}
	writeText(t, path, "file,line,row,audit,x0,x1,y\na.csv,2,0,0,1,2,3\nb.csv,7,5,51.5,4,5,6\nc.csv,3,1,,1,1,1\n")
	if lab, err := ReadLabeled(ctx, path, spec); err != nil || !slices.Equal(lab.Audited, []RowID{{"b.csv", 7}}) || len(lab.Rows) != 3 {
		t.Errorf("an audit column: %+v, %v; want b.csv line 7 audited", lab, err)
	}
	writeText(t, path, "file,line,row,x0,x1,y\na.csv,2,0,1,2,\nb.csv,7,5,4,5,6\n")
	if lab, err := ReadLabeled(ctx, path, spec); err != nil || len(lab.Rows) != 2 || lab.Y != nil || len(lab.Values) != 2 {
		t.Errorf("a label missing: %+v, %v; want the rows and their features without labels", lab, err)
	}
	// A pool column named like one of WriteSelected's is the later one.
	writeText(t, path, "file,line,row,draw,prob,weight,x0,weight,y\na.csv,2,0,0,1,1,7,8,9\n")
	if lab, err := ReadLabeled(ctx, path, Spec{Columns: []string{"x0", "weight", "y"}, Target: "y"}); err != nil || !slices.Equal(lab.Values[0], []float64{7, 8}) {
		t.Errorf("a pool column named weight: %+v, %v; want its values 7, 8", lab, err)
	}
	writeText(t, path, "file,line,row,x0,x1,y\na.csv,2,0,1,z,3\n")
	if _, err := ReadLabeled(ctx, path, spec); err == nil || !strings.Contains(err.Error(), `column "x1"`) {
		t.Errorf("a bad cell: %v; want the error to name column x1", err)
	}
	for _, bad := range []string{"file,row\na.csv,0\n", "file,line\na.csv,x\n", "file,line,row,x0,x1,y\na.csv,2,0,1,z,3\n", "file,line,audit\na.csv,2,-1\n", "file,line,audit\na.csv,2,x\n"} {
		writeText(t, path, bad)
		if _, err := ReadLabeled(ctx, path, spec); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TuneKernel maps the kernel tuned on standardized columns back to the
// raw columns: a column multiplied by 10 gets a tenth of its scale.
func TestTuneKernel(t *testing.T) {
	dir := t.TempDir()
	p := writePool(t, dir, 300, 2, 1, 8)
	ctx := context.Background()
	k1, err := TuneKernel(ctx, &Labeled{X: p.x, Y: p.y}, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.DenseCopyOf(p.x)
	for i := range 300 {
		x.Set(i, 1, 10*x.At(i, 1))
	}
	k2, err := TuneKernel(ctx, &Labeled{X: x, Y: p.y}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(k1.Report, "tuned on the 300 labeled rows") || !strings.HasPrefix(k1.Report, k1.Kernel+"(") || k1.Kernel != k2.Kernel ||
		math.Abs(k1.Sigma-k2.Sigma) > 1e-9*k1.Sigma || math.Abs(k1.Scales[0]-k2.Scales[0]) > 1e-9*k1.Scales[0] || math.Abs(k1.Scales[1]-10*k2.Scales[1]) > 1e-9*k1.Scales[1] {
		t.Errorf("%+v; with x1 x 10: %+v", k1, k2)
	}
	// The family is the default fit's on the same standardized rows.
	xs := mat.DenseCopyOf(p.x)
	for j := range 2 {
		sd := stat.StdDev(mat.Col(nil, j, p.x), nil)
		for i := range 300 {
			xs.Set(i, j, xs.At(i, j)/sd)
		}
	}
	fit, err := credlab.Tune(ctx, xs, p.y, credlab.TuneConfig{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := k1.Kernel, familyOf(fit.Choice.Kernel); got != want || k1.Sigma != fit.Choice.Sigma {
		t.Errorf("kernel %s(sigma=%g), want the default fit's %s(sigma=%g)", got, k1.Sigma, want, fit.Choice.Sigma)
	}
	if _, err := TuneKernel(ctx, &Labeled{}, 1); err == nil {
		t.Error("no labels: no error")
	}
}
