package frames

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func longFrame() dataframe.DataFrame {
	return dataframe.New(
		series.New([]string{"a", "a", "b", "a", "b", "b"}, series.String, "method"),
		series.New([]int{1, 1, 1, 2, 2, 2}, series.Int, "n"),
		series.New([]float64{1, 3, 10, 5, math.NaN(), 7}, series.Float, "v"),
		series.New([]float64{0, 1, 0, 1, 0, 1}, series.Float, "w"))
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

func TestSummarize(t *testing.T) {
	s, err := Summarize(longFrame(), []string{"method", "n"}, "v")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Names(), ","); got != "method,n,count,mean,sd,min,q25,median,q75,max" {
		t.Errorf("columns %s", got)
	}
	if s.Nrow() != 4 {
		t.Fatalf("%d groups, want 4", s.Nrow())
	}
	if m := s.Col("method").Records(); strings.Join(m, "") != "abab" {
		t.Errorf("group order %v, want first appearance a b a b", m)
	}
	mean := s.Col(SummaryMean).Float()
	sd := s.Col(SummarySD).Float()
	if !near(mean[0], 2) || !near(sd[0], math.Sqrt2) || !near(mean[1], 10) || sd[1] != 0 {
		t.Errorf("mean %v sd %v", mean, sd)
	}
	// Group (b, 2) holds NaN and 7: the NaN is skipped.
	if !near(mean[3], 7) {
		t.Errorf("NaN not skipped: mean %v", mean[3])
	}
	s2, err := Summarize(longFrame(), nil, "v", "w")
	if err != nil {
		t.Fatal(err)
	}
	if s2.Nrow() != 2 || strings.Join(s2.Col(SummaryColumn).Records(), ",") != "v,w" {
		t.Fatalf("ungrouped summary:\n%v", s2)
	}
	if med := s2.Col(SummaryMedian).Float(); !near(med[0], 5) || !near(med[1], 0.5) {
		t.Errorf("medians %v, want 5 and 0.5", med)
	}
	if q := s2.Col(SummaryQ25).Float(); !near(q[0], 3) {
		t.Errorf("q25 %v, want 3", q[0])
	}
	for _, c := range []struct {
		name   string
		df     dataframe.DataFrame
		by     []string
		values []string
		want   errCheck
	}{
		{"misspelt group", longFrame(), []string{"methd"}, []string{"v"}, wantSuggestion("methd", "method")},
		{"string value column", longFrame(), nil, []string{"method"}, wantProblem("method", "")},
		{"group named like a statistic", longFrame().Rename("mean", "w"), []string{"mean"}, []string{"v"}, wantProblem("mean", "grouping")},
		{"no value column", longFrame(), nil, nil, wantParam("values")},
		{"empty frame", dataframe.New(series.New([]float64{}, series.Float, "v")), nil, []string{"v"}, wantIs(credlab.ErrEmpty)},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Summarize(c.df, c.by, c.values...)
			c.want(t, err)
		})
	}
}

func TestPivot(t *testing.T) {
	p, err := Pivot(longFrame(), []string{"n"}, "method", "v", "mean")
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.Names(), ","); got != "n,a,b" {
		t.Fatalf("columns %s", got)
	}
	a, b := p.Col("a").Float(), p.Col("b").Float()
	if !near(a[0], 2) || !near(b[0], 10) || !near(a[1], 5) || !near(b[1], 7) {
		t.Errorf("cells a %v b %v", a, b)
	}
	c, err := Pivot(longFrame(), []string{"method"}, "n", "v", "count")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Col("1").Float(); got[0] != 2 || got[1] != 1 {
		t.Errorf("counts %v", got)
	}
	// A missing cell is NaN.
	df := longFrame().Filter(dataframe.F{Colname: "v", Comparator: series.Neq, Comparando: 10.0})
	q, err := Pivot(df, []string{"n"}, "method", "v", "median")
	if err != nil {
		t.Fatal(err)
	}
	if v := q.Col("b").Float(); !math.IsNaN(v[0]) {
		t.Errorf("missing cell %v, want NaN", v[0])
	}
	_, err = Pivot(longFrame(), []string{"n"}, "method", "v", "mode")
	wantParam("stat")(t, err)
}

func TestSplitAndSubsample(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		v[i] = float64(i)
	}
	df := dataframe.New(series.New(v, series.Float, "v"))
	tr, te, err := SplitRows(df, 0.3, 7)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Nrow() != 70 || te.Nrow() != 30 {
		t.Fatalf("split %d / %d", tr.Nrow(), te.Nrow())
	}
	seen := map[float64]bool{}
	for _, x := range append(tr.Col("v").Float(), te.Col("v").Float()...) {
		if seen[x] {
			t.Fatalf("row %v in both parts", x)
		}
		seen[x] = true
	}
	tr2, _, _ := SplitRows(df, 0.3, 7)
	if tr2.Col("v").Float()[5] != tr.Col("v").Float()[5] {
		t.Error("same seed, different split")
	}
	_, _, err = SplitRows(df, 1, 1)
	wantParam("testShare")(t, err)
	s, err := Subsample(df, 10, 3)
	if err != nil || s.Nrow() != 10 {
		t.Fatalf("subsample: %v %v", s.Nrow(), err)
	}
	sv := s.Col("v").Float()
	for i := 1; i < len(sv); i++ {
		if sv[i] <= sv[i-1] {
			t.Fatalf("subsample not in original order: %v", sv)
		}
	}
	if all, _ := Subsample(df, 500, 3); all.Nrow() != 100 {
		t.Error("oversized subsample changed the frame")
	}
}

func TestMinMaxScale(t *testing.T) {
	tr := dataframe.New(series.New([]float64{0, 5, 10}, series.Float, "a"),
		series.New([]float64{3, 3, 3}, series.Float, "c"),
		series.New([]float64{1, -1, 1}, series.Float, "y"))
	te := dataframe.New(series.New([]float64{20}, series.Float, "a"),
		series.New([]float64{4}, series.Float, "c"),
		series.New([]float64{1}, series.Float, "y"))
	a, b, err := MinMaxScale(tr, te, -1, 1, "y")
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Col("a").Float(); got[0] != -1 || got[1] != 0 || got[2] != 1 {
		t.Errorf("scaled training column %v", got)
	}
	if got := b.Col("a").Float()[0]; got != 3 {
		t.Errorf("test value %v, want 3 (outside the training range)", got)
	}
	if got := a.Col("c").Float()[0]; got != 0 {
		t.Errorf("constant column %v, want the midpoint 0", got)
	}
	if got := a.Col("y").Float()[1]; got != -1 {
		t.Errorf("excluded column changed: %v", got)
	}
	a2, b2, err := MinMaxScale(tr, dataframe.DataFrame{}, 0, 1)
	if err != nil || b2.Nrow() != 0 || a2.Col("y").Float()[1] != 0 {
		t.Errorf("without test frame: %v %v", b2.Nrow(), err)
	}
	_, _, err = MinMaxScale(tr, te, 1, -1)
	wantParam("lo, hi")(t, err)
}

func TestTable(t *testing.T) {
	v := make([]float64, 25)
	for i := range v {
		v[i] = float64(i) / 3
	}
	v[3] = math.NaN()
	df := dataframe.New(series.New(v, series.Float, "value"), series.New(make([]string, 25), series.String, "label"))
	tab := ShowTable(df)
	s := tab.String()
	if n := strings.Count(s, "\n"); n != 26 {
		t.Errorf("%d lines, want 26 (header and every row):\n%s", n, s)
	}
	if !strings.Contains(s, "7.667") || !strings.Contains(s, "NaN") {
		t.Errorf("cells not formatted to 4 digits:\n%s", s)
	}
	h := tab.HTML()
	if strings.Count(h, "<tr>") != 26 || !strings.HasPrefix(h, "<table>") {
		t.Errorf("HTML rows: %d", strings.Count(h, "<tr>"))
	}
	titled := Table{Frame: df.Subset([]int{0}), Title: "a < b"}
	if !strings.HasPrefix(titled.String(), "a < b\nvalue") || !strings.Contains(titled.HTML(), "<caption>a &lt; b</caption>") {
		t.Errorf("title: %q\n%s", titled.String(), titled.HTML())
	}
	bad := Table{Frame: dataframe.DataFrame{Err: errors.New("boom <x>")}}
	if !strings.Contains(bad.HTML(), "boom &lt;x&gt;") {
		t.Errorf("error not escaped: %s", bad.HTML())
	}
}
