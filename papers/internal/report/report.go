package report

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
)

// Command returns the command line that regenerates a reproduction:
// "prog reproduce" and args, separated by spaces, then " -quick" if quick.
func Command(prog string, quick bool, args ...string) string {
	c := prog + " reproduce " + strings.Join(args, " ")
	if quick {
		c += " -quick"
	}
	return c
}

// WriteCSV writes rows to a new file at path.
func WriteCSV(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(f)
	if err := cw.WriteAll(rows); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// G8 formats v with 8 significant digits, NaN as an empty field.
func G8(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 8, 64)
}

// G6 formats v with 6 significant digits.
func G6(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// Mean returns the mean of v (NaN for none).
func Mean(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// SD returns the sample standard deviation of v, with n - 1 in the
// denominator (0 for fewer than two values).
func SD(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	m, s := Mean(v), 0.0
	for _, x := range v {
		s += (x - m) * (x - m)
	}
	return math.Sqrt(s / float64(len(v)-1))
}
