package frames

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSelectScoresBySize checks SelectSpec.FeatureMap "": exact scores up
// to ExactScoreRows rows, LargePoolM Nyström features beyond (no N x N
// matrix), and the note that says so.
func TestSelectScoresBySize(t *testing.T) {
	for _, c := range []struct {
		n    int
		same string
		m    int
	}{{200, "exact", 0}, {ExactScoreRows + 1, "nystrom", 2000}} {
		pool := regFrame(t, c.n, 5).Select([]string{"a", "b"})
		var notes []string
		def, err := Select(pool, 20, SelectSpec{Sigma: 0.5, Seed: 2, Report: func(s string) { notes = append(notes, s) }})
		if err != nil {
			t.Fatal(err)
		}
		if noted := len(notes) == 1 && strings.Contains(notes[0], fmt.Sprintf("more than %d: CRED's scores are leverage scores on %d Nyström features", ExactScoreRows, c.m)); noted != (c.m > 0) {
			t.Errorf("%d rows: notes %q", c.n, notes)
		}
		named, err := Select(pool, 20, SelectSpec{Sigma: 0.5, Seed: 2, FeatureMap: c.same, M: c.m})
		if err != nil {
			t.Fatal(err)
		}
		if snapshot(def) != snapshot(named) {
			t.Errorf("%d rows: the default selection differs from FeatureMap %q", c.n, c.same)
		}
		bdef, err := Budget(context.Background(), pool, BudgetSpec{Sigma: 0.5, Seed: 2})
		if err != nil {
			t.Fatal(err)
		}
		bnamed, err := Budget(context.Background(), pool, BudgetSpec{Sigma: 0.5, Seed: 2, FeatureMap: c.same, M: c.m})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(bdef.DeffValues, bnamed.DeffValues) || !slices.Equal(bdef.ScoreValues, bnamed.ScoreValues) || (len(bdef.Notes) == 1) != (c.m > 0) {
			t.Errorf("%d rows: the default budget differs from FeatureMap %q, or notes %q", c.n, c.same, bdef.Notes)
		}
		if want := c.m > 0; strings.HasSuffix(bdef.Scoring, " Nyström features") != want || (bdef.Scoring == "exact kernel") == want {
			t.Errorf("%d rows: Scoring %q", c.n, bdef.Scoring)
		}
	}
}

func TestLargePoolM(t *testing.T) {
	for _, c := range []struct{ n, m int }{{5001, 2000}, {50000, 2000}, {200000, 1000}, {1000000, 447}, {1e8, 400}} {
		if got := LargePoolM(c.n); got != c.m {
			t.Errorf("LargePoolM(%d) = %d, want %d", c.n, got, c.m)
		}
	}
}
