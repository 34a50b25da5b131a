// Command credlab-nytro-exact runs exact methods of the NYTRO
// reproduction's Table 2 on Adult (nytro.Exact), which the full
// reproduction skips when one run is estimated over its 10-minute budget:
// once (seed 1), with a budget of two hours, and prints one line per run
// (status, test RMSE, the selected parameter, rank and times;
// docs/reproductions.md).
//
//	go build -o /tmp/credlab-nytro-exact ./bench/cmd/credlab-nytro-exact
//	/usr/bin/time -v /tmp/credlab-nytro-exact -data ../shared/data -methods KRLS
//
// Run it under /usr/bin/time -v for the peak memory; progress goes to
// standard error.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/credlab/credlab/papers/nytro"
)

func main() {
	data := flag.String("data", "../shared/data", "directory of the staged datasets")
	methods := flag.String("methods", "KRLS", "comma-separated exact methods: KOLS, KRLS, EarlyStopping")
	flag.Parse()
	if err := nytro.Exact(context.Background(), *data, strings.Split(*methods, ","), os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "credlab-nytro-exact:", err)
		os.Exit(1)
	}
}
