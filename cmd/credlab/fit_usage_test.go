package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestFitUsageBeforeData checks that fit reports a usage error that needs
// no data before it reads any: with -data naming a file that does not
// exist, the error is the flag's (exit 2), not the file's.
func TestFitUsageBeforeData(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-file.csv")
	fit := func(more ...string) []string {
		return append([]string{"fit", "-data", missing, "-target", "y", "-out", filepath.Join(dir, "m.json"), "-quiet"}, more...)
	}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unknown method", fit("-method", "svm"), exitUsage, `flag -method "svm": want "auto"`},
		{"bad kernel", fit("-method", "krls", "-kernel", "cosine"), exitUsage, `flag -kernel "cosine"`},
		{"sgm preset", fit("-method", "sgm", "-preset", "fast"), exitUsage, `flag -preset "fast": want minibatch, simple or batch`},
		{"auto preset", fit("-preset", "fast"), exitUsage, `flag -preset "fast": want it unset`},
		{"bad transform", fit("-transform", "log"), exitUsage, `flag -transform "log": want auto (the default), off or normal`},
		{"transform of krls", fit("-method", "krls", "-transform", "off"), exitUsage, "flags -time, -relevance and -transform apply to -method auto, not to -method krls"},
		{"centers of krls", fit("-method", "krls", "-centers", "leverage"), exitUsage, `flag -centers "leverage": want it unset`},
		{"bad centers", fit("-method", "nkrls", "-centers", "kmeans"), exitUsage, `flag -centers "kmeans": want uniform (the default) or leverage`},
		{"bad feature map", fit("-method", "linear", "-feature-map", "wavelet"), exitUsage, `flag -feature-map "wavelet": want raw, fourier, relu or nystrom`},
		{"kols weights", fit("-method", "kols", "-weight", "w"), exitUsage, `flag -weight "w": want "": method kols takes no weights`},
		{"sgm weights", fit("-method", "sgm", "-weight", "w"), exitUsage, `flag -weight "w": want "": method sgm takes no weights`},
		{"validation 0, auto", fit("-validation", "0"), exitUsage, "name a -method"},
		{"validation 0, nothing fixed", fit("-method", "krls", "-validation", "0"), exitUsage, "give -lambda (krls, nkrls, linear) or -iters"},
		{"validation 0, iters for krls", fit("-method", "krls", "-iters", "5", "-validation", "0"), exitUsage,
			"-validation 0: method krls would choose its parameter on a hold-out split; give -iters for an iterative method or -lambda for a lambda method"},
		{"validation 0, lambda for gd", fit("-method", "gd", "-lambda", "1e-3", "-validation", "0"), exitUsage, "method earlystopping would choose its parameter"},
		{"validation 0, lambda for sgm", fit("-method", "sgd", "-lambda", "1e-3", "-validation", "0"), exitUsage, "method sgm would choose its parameter"},
		// Good usage: the data is read, and its absence is the error.
		{"good", fit("-method", "krls"), exitFailure, "no-such-file.csv"},
		{"good exact", fit("-method", "gd", "-iters", "5", "-validation", "0"), exitFailure, "no-such-file.csv"},
		{"kols without weights", fit("-method", "kols", "-weight", "none"), exitFailure, "no-such-file.csv"},
		{"kols exact", fit("-method", "kols", "-validation", "0"), exitFailure, "no-such-file.csv"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			err := run(context.Background(), c.args, &out, &errb)
			msg, code := explain(err)
			if code != c.code || !strings.Contains(msg, c.want) {
				t.Fatalf("exit %d %q, want exit %d and %q", code, msg, c.code, c.want)
			}
			if c.code == exitUsage && strings.Contains(msg, "no-such-file") {
				t.Errorf("the usage error %q names the data file: was it read?", msg)
			}
		})
	}
}

// TestFitWarnedFailure checks that a fit that fails after a -sigma warning
// prints the warning on stderr and the solver's error unchanged.
func TestFitWarnedFailure(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "d.csv", csvTable(40, "a,b,y", nil))
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"fit", "-data", data, "-target", "y", "-out", filepath.Join(dir, "m.json"),
		"-method", "nkrls", "-m", "500", "-sigma", "1e-4", "-quiet"}, &out, &errb)
	msg, code := explain(err)
	if code != exitUsage || !strings.Contains(msg, "flag -m 500: want 1 to") {
		t.Errorf("exit %d %q, want the -m error", code, msg)
	}
	if !strings.Contains(errb.String(), "credlab: warning: sigma 0.0001 (Spec.Sigma, flag -sigma) is far below") {
		t.Errorf("stderr lacks the sigma warning: %q", errb.String())
	}
}
