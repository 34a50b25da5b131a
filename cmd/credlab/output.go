package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/frames/parquet"
	"github.com/go-gota/gota/dataframe"
)

// writeAtomic writes path through write: to a temporary file in the same
// directory, renamed to path once complete. On any error, or when ctx is
// done before the rename, the temporary file is removed and path is left
// as it was. A path that exists and is not a regular file (/dev/null, a
// named pipe, /dev/stdout) is written directly, never replaced.
func writeAtomic(ctx context.Context, path string, write func(w io.Writer) error) (err error) {
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return fmt.Errorf("writing %s: it is a directory", path)
		}
		return writeSpecial(ctx, path, write)
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := pending.create(dir, "."+base+".tmp*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		pending.drop(tmp)
	}()
	bw := bufio.NewWriter(f)
	if err = write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Chmod(0o644); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return pending.rename(ctx, tmp, path)
}

// pending holds the temporary files being written, so that an interrupt
// that cannot wait for the work to stop removes them before it exits.
var pending = &tempFiles{files: map[string]bool{}}

type tempFiles struct {
	mu      sync.Mutex
	files   map[string]bool
	exiting bool
}

// create makes a temporary file in dir and records it, unless the
// process is exiting.
func (t *tempFiles) create(dir, pattern string) (*os.File, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.exiting {
		return nil, context.Canceled
	}
	f, err := os.CreateTemp(dir, pattern)
	if err == nil {
		t.files[f.Name()] = true
	}
	return f, err
}

func (t *tempFiles) drop(name string) {
	t.mu.Lock()
	delete(t.files, name)
	t.mu.Unlock()
}

// rename moves tmp to path unless ctx is done or the process is exiting.
func (t *tempFiles) rename(ctx context.Context, tmp, path string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.exiting {
		return context.Canceled
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// removeAll removes every pending temporary file and refuses later renames.
func (t *tempFiles) removeAll() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.exiting = true
	for name := range t.files {
		os.Remove(name)
	}
}

// writeSpecial writes to an existing device or pipe once the work is done.
func writeSpecial(ctx context.Context, path string, write func(w io.Writer) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress reports long work on stderr unless -quiet: on a terminal a
// live line (a percentage and the time left, or the elapsed time),
// elsewhere (a pipe, a log) a line every logEvery with the stage and the
// elapsed time. done prints the final summary, unless quiet.
type progress struct {
	w     io.Writer
	live  bool
	log   bool
	quiet bool
	start time.Time
	total int
	n     int
	mu    sync.Mutex
	ticWG sync.WaitGroup
	// detail, when set, gives what the ticker's line adds (setDetail).
	detail func() string
}

// setDetail sets what the ticker shows beside the elapsed time at each
// tick, such as the stage of a search.
func (p *progress) setDetail(f func() string) {
	p.mu.Lock()
	p.detail = f
	p.mu.Unlock()
}

// newProgress starts a report on w of total steps; total <= 0 is work of
// unknown length, reported by its elapsed time.
func newProgress(w io.Writer, quiet bool, total int) *progress {
	live := false
	if f, ok := w.(*os.File); ok && !quiet {
		live = isTerminal(f)
	}
	return &progress{w: w, live: live, log: !quiet && !live, quiet: quiet, start: time.Now(), total: total}
}

// logEvery is the interval of the progress lines when stderr is not a
// terminal.
var logEvery = 5 * time.Second

// step records one finished step named what.
func (p *progress) step(what string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	if !p.live {
		return
	}
	el := time.Since(p.start)
	if p.total > 0 {
		frac := float64(p.n) / float64(p.total)
		left := time.Duration(float64(el) * (1 - frac) / frac).Round(time.Second)
		fmt.Fprintf(p.w, "\r\033[K%3.0f%%  %s done, about %s left", 100*frac, what, left)
	}
}

// ticker shows the elapsed time of a single long call, once a second,
// until stop.
func (p *progress) ticker(what string) (stop func()) {
	if !p.live && !p.log {
		return func() {}
	}
	every := time.Second
	if !p.live {
		every = logEvery
	}
	done := make(chan struct{})
	p.ticWG.Add(1)
	go func() {
		defer p.ticWG.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.mu.Lock()
				detail := ""
				if p.detail != nil {
					detail = "; " + p.detail()
				}
				if p.live {
					fmt.Fprintf(p.w, "\r\033[K%s... %s%s", what, time.Since(p.start).Round(time.Second), detail)
				} else {
					fmt.Fprintf(p.w, "credlab: %s... %s elapsed%s\n", what, time.Since(p.start).Round(time.Second), detail)
				}
				p.mu.Unlock()
			}
		}
	}()
	return func() { close(done); p.ticWG.Wait() }
}

// done ends the report with a one-line summary, unless quiet.
func (p *progress) done(summary string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		fmt.Fprint(p.w, "\r\033[K")
	}
	if p.quiet {
		return
	}
	fmt.Fprintf(p.w, "%s (%s)\n", summary, time.Since(p.start).Round(time.Millisecond))
}

// clear erases the live line before an error message.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// writeFrame writes df to path through writeAtomic: as Parquet when the
// name ends in .parquet or .parq, as CSV otherwise.
func writeFrame(ctx context.Context, path string, df dataframe.DataFrame) error {
	if frames.DataFormat(path) == "parquet" && !strings.HasSuffix(path, ".gz") {
		return writeAtomic(ctx, path, func(w io.Writer) error { return parquet.Write(w, df) })
	}
	return writeAtomic(ctx, path, func(w io.Writer) error { return frames.WriteCSV(w, df) })
}
