// Command credlab-modzip puts a module's source tree into a file module
// proxy (the GOPROXY=file://... folder the notebook kernels resolve imports
// from), so that notebooks import the library by its module path,
// "github.com/credlab/credlab/frames", from wherever they are saved.
//
//	credlab-modzip -repo DIR -proxy PROXY
//
// The version is a pseudo-version named after the content,
// v0.0.0-00010101000000-<first 12 hex digits of its SHA-256>: the same tree
// gives the same version, a changed tree a new one (module caches never
// refresh a version they hold). The module's other versions are removed
// from PROXY and @latest names this one, so that "go get" (which asks for
// the latest) picks it. It prints the version. Left out: .git, out, docker/offline, notebooks, hidden
// folders, and nested modules (folders with their own go.mod).
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

func main() {
	repo := flag.String("repo", ".", "the module's root folder (with go.mod)")
	proxy := flag.String("proxy", "", "the file module proxy folder (GOPROXY=file://PROXY)")
	flag.Parse()
	if *proxy == "" {
		fail(fmt.Errorf("-proxy is required"))
	}
	v, err := write(*repo, *proxy)
	if err != nil {
		fail(err)
	}
	fmt.Println(v)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "credlab-modzip:", err)
	os.Exit(1)
}

// skipDirs are folders of the repository that no package build needs.
var skipDirs = map[string]bool{".git": true, "out": true, "docker/offline": true, "notebooks": true}

type file struct{ rel, abs string }

func (f file) Path() string                 { return f.rel }
func (f file) Lstat() (os.FileInfo, error)  { return os.Lstat(f.abs) }
func (f file) Open() (io.ReadCloser, error) { return os.Open(f.abs) }

func write(repo, proxy string) (string, error) {
	gomod, err := os.ReadFile(filepath.Join(repo, "go.mod"))
	if err != nil {
		return "", err
	}
	path := modfile.ModulePath(gomod)
	if path == "" {
		return "", fmt.Errorf("%s/go.mod has no module line", repo)
	}
	var files []file
	err = filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repo, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			if skipDirs[rel] || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			files = append(files, file{rel, p})
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	h := sha256.New()
	for _, f := range files {
		b, err := os.ReadFile(f.abs)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f.rel, len(b))
		h.Write(b)
	}
	version := "v0.0.0-00010101000000-" + hex.EncodeToString(h.Sum(nil))[:12]
	mv := module.Version{Path: path, Version: version}
	zfiles := make([]zip.File, len(files))
	for i, f := range files {
		zfiles[i] = f
	}
	var z bytes.Buffer
	if err := zip.Create(&z, mv, zfiles); err != nil {
		return "", err
	}
	esc, err := module.EscapePath(path)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(proxy, filepath.FromSlash(esc), "@v")
	if err := os.RemoveAll(filepath.Dir(dir)); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	info, _ := json.Marshal(struct{ Version, Time string }{version, "0001-01-01T00:00:00Z"})
	for name, data := range map[string][]byte{
		version + ".zip":  z.Bytes(),
		version + ".mod":  gomod,
		version + ".info": info,
		"list":            []byte(version + "\n"),
		"../@latest":      info,
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), data, 0o644); err != nil {
			return "", err
		}
	}
	return version, nil
}
