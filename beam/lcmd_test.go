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
// credlab's LCMD on the whole pool with the same Nyström centers; on four
// it chooses distinct unlabeled rows, the same in every run.
func TestLCMDSamplePrism(t *testing.T) {
	const n, d, m, budget = 600, 3, 40, 20
	for _, shards := range []int{1, 4} {
		dir := t.TempDir()
		p := writePool(t, dir, n, d, shards, 3)
		var labeled []RowID
		var labIdx []int
		for i := 0; i < n; i += 97 {
			labeled = append(labeled, RowID{p.file[i], p.line[i]})
			labIdx = append(labIdx, i)
		}
		cfg := LCMDConfig{Spec: Spec{Columns: p.cols, Target: "y"}, Budget: budget, M: m, Sigma: 1, Seed: 4, Labeled: labeled}
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
		// The reference: LCMD on the whole pool, Nyström centers the rows
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
		ny, err := credlab.NewNystrom(credlab.GaussianKernel{Sigma: 1, Scales: scales}, centers, seqInts(m), 0)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := credlab.BatchSelector{Method: credlab.MethodLCMD, Features: ny, Previous: &credlab.Selection{Index: labIdx}}.Select(context.Background(), p.x, budget, 4)
		if err != nil {
			t.Fatal(err)
		}
		var want []RowID
		for _, i := range ref.Index[len(labIdx):] {
			want = append(want, RowID{p.file[i], p.line[i]})
		}
		sort.Slice(want, func(a, b int) bool { return want[a].Line < want[b].Line })
		sorted := slices.Clone(got)
		sort.Slice(sorted, func(a, b int) bool { return sorted[a].Line < sorted[b].Line })
		if !slices.Equal(sorted, want) {
			t.Errorf("one shard: chose %v, want %v (credlab's LCMD on the pool)", sorted, want)
		}
	}
}

func TestLCMDSampleErrors(t *testing.T) {
	dir := t.TempDir()
	p := writePool(t, dir, 60, 2, 2, 5)
	spec := Spec{Columns: p.cols, Target: "y"}
	for _, c := range []struct {
		cfg  LCMDConfig
		want string
	}{
		{LCMDConfig{Spec: spec, Budget: 5, M: 10, Labeled: []RowID{{p.files[0], 900}}}, "line 900 is not a row of the pool's shards"},
		{LCMDConfig{Spec: spec, Budget: 70, M: 10}, "budget 70"},
	} {
		pipe, s := beam.NewPipelineWithRoot()
		sel, err := LCMDSample(s, beam.CreateList(s, p.files), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		WriteSelected(s, sel, filepath.Join(dir, "x.csv"), p.cols)
		wantErr(t, run(t, pipe), c.want)
	}
	for _, bad := range []LCMDConfig{{Spec: spec}, {Spec: spec, Budget: 3, M: -1}, {Spec: spec, Budget: 3, Labeled: []RowID{{"a", 2}, {"a", 2}}}} {
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
	if err != nil || !slices.Equal(lab.Rows, []RowID{{"a.csv", 2}, {"b.csv", 7}}) || !slices.Equal(lab.Y, []float64{3, 6}) || lab.X.At(1, 1) != 5 {
		t.Errorf("got %+v, %v; want each row once with its features and label", lab, err)
	}
	writeText(t, path, "file,line,row,x0,x1,y\na.csv,2,0,1,2,\nb.csv,7,5,4,5,6\n")
	if lab, err := ReadLabeled(ctx, path, spec); err != nil || len(lab.Rows) != 2 || lab.Y != nil {
		t.Errorf("a label missing: %+v, %v; want the rows without labels", lab, err)
	}
	for _, bad := range []string{"file,row\na.csv,0\n", "file,line\na.csv,x\n", "file,line,row,x0,x1,y\na.csv,2,0,1,z,3\n"} {
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
	s1, sc1, report, err := TuneKernel(ctx, &Labeled{X: p.x, Y: p.y}, 1)
	if err != nil {
		t.Fatal(err)
	}
	x := mat.DenseCopyOf(p.x)
	for i := range 300 {
		x.Set(i, 1, 10*x.At(i, 1))
	}
	s2, sc2, _, err := TuneKernel(ctx, &Labeled{X: x, Y: p.y}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(report, "tuned on the 300 labeled rows") || math.Abs(s1-s2) > 1e-9*s1 ||
		math.Abs(sc1[0]-sc2[0]) > 1e-9*sc1[0] || math.Abs(sc1[1]-10*sc2[1]) > 1e-9*sc1[1] {
		t.Errorf("sigma %g, scales %v; with x1 x 10: sigma %g, scales %v (%q)", s1, sc1, s2, sc2, report)
	}
	if _, _, _, err := TuneKernel(ctx, &Labeled{}, 1); err == nil {
		t.Error("no labels: no error")
	}
}
