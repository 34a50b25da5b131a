package repro

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"strings"
)

// command returns the command line that regenerates a reproduction:
// "prog reproduce" and args, separated by spaces, then " -quick" if quick.
func command(prog string, quick bool, args ...string) string {
	c := prog + " reproduce " + strings.Join(args, " ")
	if quick {
		c += " -quick"
	}
	return c
}

// writeCSV writes rows to a new file at path.
func writeCSV(path string, rows [][]string) error {
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

// fmtF formats v with 8 significant digits, NaN as an empty field.
func fmtF(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 8, 64)
}
