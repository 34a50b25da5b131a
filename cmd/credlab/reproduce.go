package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/credlab/credlab/internal/repro"
)

// reproductions maps each reproducible paper to its experiment.
var reproductions = map[string]func(ctx context.Context, dataDir, outDir string, quick bool, w io.Writer) error{
	"nytro":   repro.NYTRO,
	"cred":    repro.CRED,
	"sgm":     repro.SGM,
	"distreg": repro.DistReg,
}

func reproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" {
		fmt.Fprintln(stderr, "usage: credlab reproduce cred|sgm|distreg|nytro -data DIR -out DIR [-quick]")
		if len(args) == 0 {
			return usageError{"reproduce: name the paper: cred, sgm, distreg or nytro"}
		}
		return flag.ErrHelp
	}
	paper := args[0]
	fs := newFlags("reproduce "+paper, "reproduce "+paper+" -data DIR -out DIR [-quick]", stderr)
	data := fs.String("data", "../shared/data", "directory of the staged datasets")
	out := fs.String("out", "out/"+paper, "output directory for CSV and markdown")
	quick := fs.Bool("quick", false, "small sizes and one repetition")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	run, ok := reproductions[paper]
	if !ok {
		return usageError{fmt.Sprintf("reproduce: unknown paper %q (have: cred, sgm, distreg, nytro)", paper)}
	}
	return run(ctx, *data, *out, *quick, stdout)
}
