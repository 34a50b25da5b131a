package main

import (
	"context"
	"flag"
	"fmt"
	"io"
)

func reproduce(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" {
		fmt.Fprintln(stderr, "usage: credlab reproduce nytro -data DIR -out DIR [-quick]")
		if len(args) == 0 {
			return usageError{"reproduce: name the paper: nytro"}
		}
		return flag.ErrHelp
	}
	paper := args[0]
	fs := flag.NewFlagSet("reproduce "+paper, flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", "../shared/data", "directory of the staged datasets")
	out := fs.String("out", "out/reproduce", "output directory for CSV and markdown")
	quick := fs.Bool("quick", false, "small sizes and one repetition")
	if err := parse(fs, args[1:]); err != nil {
		return err
	}
	switch paper {
	case "nytro":
		return reproduceNYTRO(ctx, *data, *out, *quick, stdout)
	}
	return usageError{fmt.Sprintf("reproduce: unknown paper %q (have: nytro)", paper)}
}
