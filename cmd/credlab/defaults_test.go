package main

import (
	"bytes"
	"context"
	"errors"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// flagDefaults returns each flag of command cmd with its default as the
// help shows it ("" when none is shown: false, 0 or an empty string).
func flagDefaults(t *testing.T, cmd string) map[string]string {
	t.Helper()
	var out, errb bytes.Buffer
	run(context.Background(), []string{cmd, "-h"}, &out, &errb)
	re := regexp.MustCompile(`(?m)^  -(\S+)[^\n]*\n\s+\t[^\n]*?(?:\(default ([^:][^\n]*)\))?$`)
	got := map[string]string{}
	for _, m := range re.FindAllStringSubmatch(errb.String(), -1) {
		got[m[1]] = strings.Trim(m[2], `"`)
	}
	if len(got) == 0 {
		t.Fatalf("%s -h shows no flags:\n%s", cmd, errb.String())
	}
	return got
}

// TestDefaultsTable checks every row of the README's table of defaults
// against the flags of each command it names, and the frames specs' zero
// values against the commands' defaults.
func TestDefaultsTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(readme)
	i, j := strings.Index(s, "<!-- defaults:begin -->"), strings.Index(s, "<!-- defaults:end -->")
	if i < 0 || j < i {
		t.Fatal("README has no table of defaults")
	}
	row := regexp.MustCompile("(?m)^\\| `(-[a-z-]+)` \\| `([^`]*)` \\| ([a-z, ]+) \\|")
	rows := row.FindAllStringSubmatch(s[i:j], -1)
	if len(rows) < 8 {
		t.Fatalf("the table has %d rows", len(rows))
	}
	defaults := map[string]map[string]string{}
	for _, r := range rows {
		name, want := strings.TrimPrefix(r[1], "-"), strings.Trim(r[2], `"`)
		if want == "false" || want == "0" || want == "0s" { // flag -h omits zero defaults
			want = ""
		}
		listed := map[string]bool{}
		for _, cmd := range strings.Split(r[3], ", ") {
			listed[cmd] = true
			if defaults[cmd] == nil {
				defaults[cmd] = flagDefaults(t, cmd)
			}
			got, ok := defaults[cmd][name]
			if !ok {
				t.Errorf("%s has no flag -%s", cmd, name)
			} else if got != want {
				t.Errorf("%s -%s defaults to %q, the table says %q", cmd, name, got, r[2])
			}
		}
		for cmd := range commands { // every command with the flag is in its row
			if cmd == "version" || cmd == "reproduce" || listed[cmd] { // no flags, or flags per paper
				continue
			}
			if defaults[cmd] == nil {
				defaults[cmd] = flagDefaults(t, cmd)
			}
			if _, ok := defaults[cmd][name]; ok {
				t.Errorf("%s has the flag -%s, which the table's row does not list", cmd, name)
			}
		}
	}

	// The specs at their zero value: standardized like the commands.
	x, _, _ := credlab.SmoothRegression(300, 2, 0.1, 1)
	pool, _ := frames.FromMatrix(x, "a", "b")
	pool = pool.Mutate(series.New(scaled(x.RawMatrix().Data[1:], 50), series.Float, "b")) // columns of different scales
	def, err := frames.Select(pool, 20, frames.SelectSpec{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	std, _ := frames.Select(pool, 20, frames.SelectSpec{Seed: 1, Scale: frames.ScaleStandardize})
	none, _ := frames.Select(pool, 20, frames.SelectSpec{Seed: 1, Scale: frames.ScaleNone})
	if !sameRecords(def, std) || sameRecords(def, none) {
		t.Error("SelectSpec{} does not standardize")
	}
	bdef, err := frames.Budget(context.Background(), pool, frames.BudgetSpec{})
	if err != nil {
		t.Fatal(err)
	}
	bstd, _ := frames.Budget(context.Background(), pool, frames.BudgetSpec{Scale: frames.ScaleStandardize})
	if !sameRecords(bdef.Summary, bstd.Summary) {
		t.Error("BudgetSpec{} does not standardize")
	}
	m, err := frames.Fit(pool.Mutate(series.New(x.RawMatrix().Data[:300], series.Float, "y")), frames.Spec{Target: "y", Method: "krls", Lambda: 1e-3})
	if err != nil || m.Spec.Scale != frames.ScaleStandardize {
		t.Errorf("Spec{} scale %q, err %v", m.Spec.Scale, err)
	}
	// OneHot and DropNA off: string features and missing values are errors.
	withStr := pool.Mutate(series.New(make([]string, 300), series.String, "c"))
	if _, err := frames.Select(withStr, 5, frames.SelectSpec{}); !errors.As(err, new(*frames.StringColumnsError)) {
		t.Errorf("SelectSpec{} on a string column: %v", err)
	}
	if _, err := frames.Budget(context.Background(), withStr, frames.BudgetSpec{}); !errors.As(err, new(*frames.StringColumnsError)) {
		t.Errorf("BudgetSpec{} on a string column: %v", err)
	}
	holed := scaled(x.RawMatrix().Data, 1)
	holed[7] = math.NaN()
	withNaN := pool.Mutate(series.New(holed, series.Float, "a"))
	if _, err := frames.Select(withNaN, 5, frames.SelectSpec{}); !errors.As(err, new(*frames.MissingError)) {
		t.Errorf("SelectSpec{} on a missing value: %v", err)
	}
}

// scaled returns c times every other value of v (a column of a row-major
// n x 2 matrix), 300 of them.
func scaled(v []float64, c float64) []float64 {
	out := make([]float64, 300)
	for i := range out {
		out[i] = c * v[2*i]
	}
	return out
}

func sameRecords(a, b dataframe.DataFrame) bool {
	return strings.Join(strings.Fields(strings.Join(flat(a.Records()), " ")), " ") == strings.Join(strings.Fields(strings.Join(flat(b.Records()), " ")), " ")
}

func flat(r [][]string) []string {
	var out []string
	for _, x := range r {
		out = append(out, x...)
	}
	return out
}

// TestSelectWarnsOfLabel checks that select without -target names a
// column that looks like the label, and says nothing with -target.
func TestSelectWarnsOfLabel(t *testing.T) {
	dir := t.TempDir()
	pool := dir + "/pool.csv"
	os.WriteFile(pool, []byte("x1,x2,price\n1,2,3\n2,1,5\n3,3,4\n4,1,2\n5,2,6\n6,0,1\n"), 0o644)
	for _, c := range []struct {
		args []string
		warn bool
	}{{nil, true}, {[]string{"-target", "price"}, false}, {[]string{"-exclude", "price"}, false}} {
		var out, errb bytes.Buffer
		args := append([]string{"select", "-pool", pool, "-budget", "3", "-quiet", "-out", dir + "/c.csv"}, c.args...)
		if err := run(context.Background(), args, &out, &errb); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(errb.String(), `column "price" is scored as a feature`); got != c.warn {
			t.Errorf("%q: warned %v, want %v: %q", c.args, got, c.warn, errb.String())
		}
	}
}
