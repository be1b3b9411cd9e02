// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// downloadTestZip builds an in-memory zip holding files (name -> content).
func downloadTestZip(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, content := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write([]byte(content)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// downloadTestArchive is a small ARC-AGI archive: 3 training and 2 evaluation tasks, the license, and
// files DownloadARC must skip.
func downloadTestArchive() map[string]string {
	const root = "ARC-AGI-master/"
	return map[string]string{
		root + "LICENSE":                      "Apache License 2.0",
		root + "README.md":                    "# ARC",
		root + "data/training/t1.json":        arcTestValidTask,
		root + "data/training/t2.json":        arcTestTaskJSON(`[[1, 2]]`),
		root + "data/training/t3.json":        arcTestTaskJSON(arcTestGridJSON(30, 30)),
		root + "data/training/notes.txt":      "skip me",
		root + "data/evaluation/e1.json":      arcTestValidTask,
		root + "data/evaluation/e2.json":      `{"train": [{"input": [[1]], "output": [[2]]}], "test": [{"input": [[3]]}]}`,
		root + "data/other/x.json":            "not even JSON",
		root + "apps/js/testing_interface.js": "// skip",
	}
}

// downloadTestServer serves the given paths and counts the requests.
type downloadTestServer struct {
	*httptest.Server
	requests   atomic.Int64
	userAgents atomic.Value
}

func newDownloadTestServer(t *testing.T, files map[string][]byte) *downloadTestServer {
	s := &downloadTestServer{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.requests.Add(1)
		s.userAgents.Store(r.Header.Get("User-Agent"))
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		if strings.HasPrefix(r.URL.Path, "/chunked/") {
			// Flushing first makes the response chunked, without a Content-Length.
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
		} else {
			w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(s.Close)
	return s
}

var downloadTestOptions = DownloadOptions{ExpectedTraining: 3, ExpectedEvaluation: 2}

// downloadTestEmpty checks that dir holds nothing (a failed download left nothing behind).
func downloadTestEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("failed download left %s in the data dir", e.Name())
	}
}

func TestDownloadARC(t *testing.T) {
	archive := downloadTestZip(t, downloadTestArchive())
	srv := newDownloadTestServer(t, map[string][]byte{"/arc.zip": archive})
	dataDir := filepath.Join(t.TempDir(), "data") // Created by DownloadARC.
	opts := downloadTestOptions
	opts.URL = srv.URL + "/arc.zip"
	var progressCalls, lastRead, lastTotal int64
	opts.Progress = func(read, total int64) { progressCalls++; lastRead, lastTotal = read, total }

	if err := DownloadARC(context.Background(), dataDir, opts); err != nil {
		t.Fatalf("DownloadARC: %v", err)
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
	if ua, _ := srv.userAgents.Load().(string); !strings.HasPrefix(ua, "latformer") {
		t.Errorf("User-Agent %q, want latformer's", ua)
	}
	t.Logf("archive of %d bytes, %d progress calls, last %d/%d", len(archive), progressCalls, lastRead, lastTotal)
	if progressCalls == 0 || lastRead != int64(len(archive)) || lastTotal != int64(len(archive)) {
		t.Errorf("progress: %d calls, last %d/%d; want calls ending at %d/%d", progressCalls, lastRead, lastTotal, len(archive), len(archive))
	}

	// Files: the tasks load, the skipped files are not there, nothing else is in the data dir.
	for split, want := range map[string]int{"training": 3, "evaluation": 2} {
		dir, err := ARCSplitDir(dataDir, split)
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := LoadDir(dir)
		if err != nil || len(tasks) != want {
			t.Errorf("%s: %d tasks, err %v; want %d", split, len(tasks), err, want)
		}
		entries, _ := os.ReadDir(dir)
		if len(entries) != want {
			t.Errorf("%s holds %d files, want %d", split, len(entries), want)
		}
	}
	if entries, _ := os.ReadDir(dataDir); len(entries) != 1 || entries[0].Name() != "arc" {
		t.Errorf("data dir holds %d entries, want only arc", len(entries))
	}
	if entries, _ := os.ReadDir(filepath.Join(dataDir, "arc")); len(entries) != 4 {
		t.Errorf("arc dir holds %d entries, want 4 (training, evaluation, LICENSE, MANIFEST.json)", len(entries))
	}

	// Manifest: source, count and the SHA-256 of every file.
	data, err := os.ReadFile(filepath.Join(dataDir, "arc", ARCManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m arcManifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if m.Source != opts.URL || m.Count != 6 || len(m.Files) != 6 || m.Training != 3 || m.Evaluation != 2 {
		t.Errorf("manifest source %q, count %d, %d files, %d training, %d evaluation; want %s, 6, 6, 3, 2",
			m.Source, m.Count, len(m.Files), m.Training, m.Evaluation, opts.URL)
	}
	for _, f := range m.Files {
		content, err := os.ReadFile(filepath.Join(dataDir, "arc", filepath.FromSlash(f.Path)))
		if err != nil {
			t.Errorf("manifest lists %s: %v", f.Path, err)
			continue
		}
		if sum := sha256.Sum256(content); hex.EncodeToString(sum[:]) != f.SHA256 {
			t.Errorf("manifest SHA-256 of %s is wrong", f.Path)
		}
	}

	// Cached: no new request.
	if err := DownloadARC(context.Background(), dataDir, opts); err != nil {
		t.Fatalf("second DownloadARC: %v", err)
	}
	if n := srv.requests.Load(); n != 1 {
		t.Errorf("cached DownloadARC made %d new requests, want 0", n-1)
	}

	// A changed file invalidates the cache: a new download restores it and drops stray files.
	t2 := filepath.Join(dataDir, "arc", "training", "t2.json")
	stray := filepath.Join(dataDir, "arc", "training", "stray.json")
	if err := os.WriteFile(t2, []byte("changed"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stray, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := DownloadARC(context.Background(), dataDir, opts); err != nil {
		t.Fatalf("third DownloadARC: %v", err)
	}
	if n := srv.requests.Load(); n != 2 {
		t.Errorf("%d requests after a file changed, want 2", n)
	}
	if _, err := LoadTask(t2); err != nil {
		t.Errorf("t2.json not restored: %v", err)
	}
	if _, err := os.Stat(stray); err == nil {
		t.Error("stray.json survived the new download")
	}
	if entries, _ := os.ReadDir(dataDir); len(entries) != 1 {
		t.Errorf("data dir holds %d entries after the re-download, want only arc", len(entries))
	}

	// Other expected counts invalidate the cache too.
	opts.ExpectedTraining = 4
	if err := DownloadARC(context.Background(), dataDir, opts); err == nil || !strings.Contains(err.Error(), "archive has 3 training tasks") {
		t.Errorf("DownloadARC expecting 4 training tasks: %v", err)
	}
	if _, err := LoadTask(t2); err != nil {
		t.Errorf("failed download damaged the previous one: %v", err)
	}
}

func TestDownloadARCErrors(t *testing.T) {
	valid := downloadTestArchive()
	invalid := downloadTestArchive()
	invalid["ARC-AGI-master/data/training/bad1.json"] = arcTestTaskJSON(`[[1, 2], [3]]`)
	invalid["ARC-AGI-master/data/evaluation/bad2.json"] = `{"train": `
	srv := newDownloadTestServer(t, map[string][]byte{
		"/arc.zip":         downloadTestZip(t, valid),
		"/chunked/arc.zip": downloadTestZip(t, valid),
		"/corrupt.zip":     []byte("PK\x03\x04 this is not a zip archive"),
		"/invalid.zip":     downloadTestZip(t, invalid),
	})
	cases := []struct {
		name, path string
		opts       DownloadOptions
		limit      int64
		want       []string
	}{
		{"404", "/missing.zip", downloadTestOptions, 0, []string{"HTTP status 404"}},
		{"corrupt zip", "/corrupt.zip", downloadTestOptions, 0, []string{"not a valid zip archive"}},
		{"invalid tasks", "/invalid.zip", downloadTestOptions, 0, []string{"2 invalid task files",
			"ARC-AGI-master/data/training/bad1.json", "ragged grid", "ARC-AGI-master/data/evaluation/bad2.json", "not valid JSON"}},
		{"default counts", "/arc.zip", DownloadOptions{}, 0, []string{"archive has 3 training tasks under <root>/data/training, expected 400"}},
		{"wrong evaluation count", "/arc.zip", DownloadOptions{ExpectedTraining: 3, ExpectedEvaluation: 5}, 0, []string{"archive has 2 evaluation tasks", "expected 5"}},
		{"too large", "/arc.zip", downloadTestOptions, 100, []string{"bytes, more than the limit of 100"}},
		{"too large, chunked", "/chunked/arc.zip", downloadTestOptions, 100, []string{"more than the limit of 100 bytes"}},
	}
	defer func(limit int64) { maxARCArchiveBytes = limit }(maxARCArchiveBytes)
	for _, c := range cases {
		dataDir := t.TempDir()
		c.opts.URL = srv.URL + c.path
		maxARCArchiveBytes = 200 << 20
		if c.limit > 0 {
			maxARCArchiveBytes = c.limit
		}
		err := DownloadARC(context.Background(), dataDir, c.opts)
		if err == nil {
			t.Errorf("%s: DownloadARC succeeded", c.name)
			continue
		}
		t.Logf("%s: %v", c.name, err)
		for _, w := range append(c.want, c.path) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
		downloadTestEmpty(t, dataDir)
	}

	// A cancelled context stops the download before anything is written.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dataDir := t.TempDir()
	opts := downloadTestOptions
	opts.URL = srv.URL + "/arc.zip"
	if err := DownloadARC(ctx, dataDir, opts); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Errorf("DownloadARC with a cancelled context: %v", err)
	}
	downloadTestEmpty(t, dataDir)
}
