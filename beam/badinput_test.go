package credbeam

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
)

// smallPool writes 3 shards of 40 rows, d = 2, then lets edit change them.
func smallPool(t *testing.T, edit func(dir string, p *pool)) *pool {
	dir := t.TempDir()
	p := writePool(t, dir, 120, 2, 3, 9)
	if edit != nil {
		edit(dir, p)
	}
	return p
}

// replaceLine replaces line (1-based) of file.
func replaceLine(t *testing.T, file string, line int, text string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	lines[line-1] = text
	if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

func selectPipeline(t *testing.T, p *pool, budget int) error {
	pipe, s := beam.NewPipelineWithRoot()
	out, err := CREDSample(s, beam.CreateList(s, p.files), SelectSpec{Spec: Spec{Columns: p.cols, Target: "y"}, D: 10, Sigma: 1, Budget: budget, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	WriteSelected(s, out.Selected, filepath.Join(t.TempDir(), "sel.csv"), p.cols)
	return run(t, pipe)
}

func statsPipeline(t *testing.T, p *pool) error {
	pipe, s := beam.NewPipelineWithRoot()
	out, err := NystromFit(s, beam.CreateList(s, p.files), NystromSpec{Spec: Spec{Columns: p.cols, Target: "y"}, M: 10, Sigma: 1, Lambda: 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	WriteText(s, out.Model, filepath.Join(t.TempDir(), "model.json"))
	return run(t, pipe)
}

// TestBadInput runs both pipelines on broken pools: each must fail with
// an error naming the shard, and the line and column where they apply.
func TestBadInput(t *testing.T) {
	shard := func(p *pool, k int) string { return p.files[k] }
	cases := []struct {
		name  string
		edit  func(t *testing.T, dir string, p *pool)
		parts func(p *pool) []string
	}{
		{"other columns", func(t *testing.T, dir string, p *pool) {
			replaceLine(t, p.files[1], 1, "x0,z,y")
		}, func(p *pool) []string { return []string{shard(p, 1), "line 1", "columns differ", "[x0 z y]"} }},
		{"header only", func(t *testing.T, dir string, p *pool) {
			os.WriteFile(p.files[2], []byte("x0,x1,y\n"), 0o644)
		}, func(p *pool) []string { return []string{shard(p, 2), "empty shard", "no data rows"} }},
		{"empty file", func(t *testing.T, dir string, p *pool) {
			os.WriteFile(p.files[0], nil, 0o644)
		}, func(p *pool) []string { return []string{shard(p, 0), "empty shard", "no header"} }},
		{"NaN", func(t *testing.T, dir string, p *pool) {
			replaceLine(t, p.files[1], 7, "0.5,NaN,1")
		}, func(p *pool) []string { return []string{shard(p, 1), "line 7", `column "x1"`, "not finite"} }},
		{"not a number", func(t *testing.T, dir string, p *pool) {
			replaceLine(t, p.files[2], 12, "0.5,abc,1")
		}, func(p *pool) []string { return []string{shard(p, 2), "line 12", `column "x1"`, `cannot parse "abc"`} }},
		{"short record", func(t *testing.T, dir string, p *pool) {
			replaceLine(t, p.files[0], 30, "0.5,1")
		}, func(p *pool) []string { return []string{shard(p, 0), "line 30", "wrong number of fields"} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := smallPool(t, func(dir string, p *pool) { c.edit(t, dir, p) })
			wantErr(t, selectPipeline(t, p, 10), c.parts(p)...)
			wantErr(t, statsPipeline(t, p), c.parts(p)...)
		})
	}
	t.Run("budget over the pool", func(t *testing.T) {
		p := smallPool(t, nil)
		wantErr(t, selectPipeline(t, p, 121), "budget 121", "3 shards hold 120 rows with positive probability")
	})
}

// TestDriverErrors checks the typed errors of the driver-side helpers.
func TestDriverErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := ExpandShards(ctx, filepath.Join(dir, "*.csv")); !errors.Is(err, ErrNoShards) {
		t.Errorf("ExpandShards of nothing: %v, want ErrNoShards", err)
	}
	empty := filepath.Join(dir, "a.csv")
	os.WriteFile(empty, nil, 0o644)
	_, err := ReadHeader(ctx, empty)
	var se *ShardError
	if !errors.As(err, &se) || se.File != empty || !errors.Is(err, ErrEmptyShard) {
		t.Errorf("ReadHeader of an empty file: %v, want a ShardError naming it wrapping ErrEmptyShard", err)
	}
	if _, err := NewPlan([]ShardMass{{File: "a", Rows: 3, Sum: 1}, {File: "b", Rows: 2, Sum: 1}}, 6, false, 1); !errors.Is(err, ErrBudget) {
		t.Errorf("NewPlan with budget 6 over 5 rows: %v, want ErrBudget", err)
	}
	var cfgErr error
	_, s := beam.NewPipelineWithRoot()
	_, cfgErr = CREDSample(s, beam.Create(s, "x"), SelectSpec{Spec: Spec{Columns: []string{"a"}}, D: 0, Sigma: 1, Budget: 1})
	wantErr(t, cfgErr, "SelectSpec.D = 0")
	_, cfgErr = NystromFit(s, beam.Create(s, "x"), NystromSpec{Spec: Spec{Columns: []string{"a", "y"}}, M: 5})
	wantErr(t, cfgErr, "Target is empty")
}
