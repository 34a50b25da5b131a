package papers

import (
	"context"
	"encoding/csv"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
)

// reproductions maps each paper to its reproduction.
var reproductions = map[string]func(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error{
	"cred":    reproduceCRED,
	"sgm":     reproduceSGM,
	"distreg": reproduceDistReg,
	"nytro":   reproduceNYTRO,
}

// Reproductions lists the papers Reproduce knows: "cred", "distreg",
// "nytro" and "sgm".
func Reproductions() []string { return []string{"cred", "distreg", "nytro", "sgm"} }

// Reproduce runs one paper's reproduction (`credlab reproduce PAPER`):
// every experiment of the paper at its full size (quick: small sizes that
// finish in about a minute), reading the staged data sets from dataDir.
// It writes the CSV files of each figure or table and the report
// reproductions-PAPER.md to outDir and its progress to w.
func Reproduce(ctx context.Context, paper, dataDir, outDir string, quick bool, w io.Writer) error {
	run, ok := reproductions[strings.ToLower(paper)]
	if !ok {
		return &credlab.ParamError{Name: "paper", Value: strconv.Quote(paper), Want: "one of " + strings.Join(Reproductions(), ", ")}
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	return run(ctx, dataDir, outDir, quick, w)
}

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
