package frames

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-gota/gota/series"
)

func TestDateColumnsRefused(t *testing.T) {
	base := regFrame(t, 40, 3)
	for _, c := range []struct {
		name  string
		vals  func(i int) string
		dates bool
	}{
		{"ISO dates", func(i int) string { return fmt.Sprintf("2014-05-%02d", i%28+1) }, true},
		{"timestamps", func(i int) string { return fmt.Sprintf("2014-05-02 %02d:15:00", i%24) }, true},
		{"US dates", func(i int) string { return fmt.Sprintf("%d/%d/2019", i%12+1, i%28+1) }, true},
		{"cities", func(i int) string { return []string{"north", "south", "east"}[i%3] }, false},
		{"codes", func(i int) string { return []string{"A1", "B2"}[i%2] }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			v := make([]string, base.Nrow())
			for i := range v {
				v[i] = c.vals(i)
			}
			df := base.Mutate(series.New(v, series.String, "when"))
			for _, oneHot := range []bool{false, true} {
				_, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Sigma: 1, OneHot: oneHot})
				var pe *ColumnProblemError
				isDate := errors.As(err, &pe) && pe.Name == "when" && strings.Contains(err.Error(), "dates or times")
				if isDate != c.dates {
					t.Errorf("OneHot %v: %v", oneHot, err)
				}
				if !c.dates && !oneHot && !errors.As(err, new(*StringColumnsError)) {
					t.Errorf("a string column without OneHot: %v", err)
				}
			}
		})
	}
}

func TestManyLevelsWarned(t *testing.T) {
	base := regFrame(t, 120, 4)
	for _, c := range []struct {
		levels int
		warn   bool
	}{{3, false}, {20, false}, {31, true}, {60, true}} {
		v := make([]string, base.Nrow())
		for i := range v {
			v[i] = fmt.Sprintf("id%d", i%c.levels)
		}
		df := base.Mutate(series.New(v, series.String, "id"))
		m, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, Sigma: 1, OneHot: true})
		if err != nil {
			t.Fatal(err)
		}
		warned := strings.Contains(strings.Join(m.Warnings, "\n"), fmt.Sprintf(`column "id" made %d design columns`, c.levels))
		if warned != c.warn {
			t.Errorf("%d levels on 120 rows: warned %v, want %v (%q)", c.levels, warned, c.warn, m.Warnings)
		}
	}
}
