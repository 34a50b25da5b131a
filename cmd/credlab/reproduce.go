package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/credlab/credlab/papers"
)

func reproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	names := strings.Join(papers.Reproductions(), "|")
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" {
		fmt.Fprintln(stderr, "usage: credlab reproduce "+names+" -data DIR -out DIR [-quick]")
		if len(args) == 0 {
			return usageError{"reproduce: name the paper: " + strings.Join(papers.Reproductions(), ", ")}
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
	if !slices.Contains(papers.Reproductions(), paper) {
		return usageError{fmt.Sprintf("reproduce: unknown paper %q (have: %s)", paper, strings.Join(papers.Reproductions(), ", "))}
	}
	return papers.Reproduce(ctx, paper, *data, *out, *quick, stdout)
}
