// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package datasets

// Downloading ARC-AGI-1 (Chollet 2019) from its public GitHub repository.

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// DefaultARCArchiveURL is the zip archive of the public ARC-AGI-1 repository (github.com/fchollet/ARC-AGI,
// Apache-2.0), whose data/training and data/evaluation folders hold 400 task files each.
const DefaultARCArchiveURL = "https://github.com/fchollet/ARC-AGI/archive/refs/heads/master.zip"

// ARCManifestName is the name of the manifest DownloadARC writes in <dataDir>/arc.
const ARCManifestName = "MANIFEST.json"

const (
	defaultARCTasksPerSplit = 400
	arcDownloadUserAgent    = "latformer-datasets/1 (+https://github.com/latformer/latformer)"
	arcDownloadTimeout      = 10 * time.Minute
	maxARCEntryBytes        = 16 << 20 // Largest task or license file extracted (ARC tasks are < 100 kB).
)

// maxARCArchiveBytes is the most DownloadARC reads from the server (a variable so tests can lower it).
var maxARCArchiveBytes int64 = 200 << 20

// DownloadOptions configures DownloadARC. The zero value downloads DefaultARCArchiveURL and expects
// 400 training and 400 evaluation tasks.
type DownloadOptions struct {
	// URL of the zip archive; empty means DefaultARCArchiveURL.
	URL string
	// ExpectedTraining and ExpectedEvaluation are the number of task files each split must have: 0 means
	// 400 (ARC-AGI-1), a negative value skips the check.
	ExpectedTraining, ExpectedEvaluation int
	// Client is the HTTP client to use; nil means a client with a 10-minute timeout.
	Client *http.Client
	// Progress, if not nil, is called as the archive downloads with the bytes read so far and the total
	// (-1 when the server does not say).
	Progress func(read, total int64)
}

// arcManifest is the content of <dataDir>/arc/MANIFEST.json.
type arcManifest struct {
	Source     string              `json:"source"`
	Downloaded string              `json:"downloaded"`
	Count      int                 `json:"count"`
	Training   int                 `json:"training"`
	Evaluation int                 `json:"evaluation"`
	Files      []arcManifestRecord `json:"files"`
}

type arcManifestRecord struct {
	Path   string `json:"path"` // Relative to <dataDir>/arc, with forward slashes.
	SHA256 string `json:"sha256"`
}

// DownloadARC downloads ARC-AGI-1 (Chollet 2019) into dataDir: it fetches the repository zip from opts.URL
// (DefaultARCArchiveURL by default), extracts data/training/*.json and data/evaluation/*.json into
// <dataDir>/arc/training and <dataDir>/arc/evaluation (and the repository LICENSE into <dataDir>/arc),
// checks that every task parses with ParseTask and that the splits have the expected number of tasks
// (400 each unless opts says otherwise), and writes <dataDir>/arc/MANIFEST.json with the source URL, the
// file count and the SHA-256 of every file.
//
// It is cached: if the manifest exists, lists the expected number of tasks, and every file it lists is
// present with the same SHA-256, DownloadARC returns nil at once without touching the network.
//
// Everything is written to a temporary directory inside dataDir first and moved into place only once
// it all checks out, the manifest last, so an interrupted or failed download leaves no half-written
// data. The request carries ctx, a User-Agent and (with the default client) a 10-minute timeout; a
// non-200 status, an archive over 200 MB, a corrupt zip, an invalid task (the error names every bad
// file) or wrong counts are errors.
func DownloadARC(ctx context.Context, dataDir string, opts DownloadOptions) error {
	if opts.URL == "" {
		opts.URL = DefaultARCArchiveURL
	}
	if opts.ExpectedTraining == 0 {
		opts.ExpectedTraining = defaultARCTasksPerSplit
	}
	if opts.ExpectedEvaluation == 0 {
		opts.ExpectedEvaluation = defaultARCTasksPerSplit
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: arcDownloadTimeout}
	}
	arcDir := filepath.Join(dataDir, "arc")
	if checkARCManifest(arcDir, opts) == nil {
		return nil
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return fmt.Errorf("downloading ARC: %w", err)
	}
	tmp, err := os.MkdirTemp(dataDir, ".arc-download-*")
	if err != nil {
		return fmt.Errorf("downloading ARC: %w", err)
	}
	defer func() { _ = os.RemoveAll(tmp) }()

	zipPath := filepath.Join(tmp, "archive.zip")
	if err := fetchARCArchive(ctx, opts, zipPath); err != nil {
		return fmt.Errorf("downloading ARC from %s: %w", opts.URL, err)
	}
	manifest, err := extractARCArchive(ctx, zipPath, tmp, opts)
	if err != nil {
		return fmt.Errorf("ARC archive from %s: %w", opts.URL, err)
	}
	if err := os.Remove(zipPath); err != nil {
		return fmt.Errorf("downloading ARC: %w", err)
	}
	if err := installARC(tmp, arcDir, manifest); err != nil {
		return fmt.Errorf("installing ARC into %s: %w", arcDir, err)
	}
	return nil
}

// checkARCManifest returns nil if arcDir holds a manifest with the expected counts whose files are all
// present with their recorded SHA-256.
func checkARCManifest(arcDir string, opts DownloadOptions) error {
	data, err := os.ReadFile(filepath.Join(arcDir, ARCManifestName))
	if err != nil {
		return err
	}
	var m arcManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return err
	}
	counts := map[string]int{}
	for _, f := range m.Files {
		if !filepath.IsLocal(filepath.FromSlash(f.Path)) {
			return fmt.Errorf("manifest path %q is not local", f.Path)
		}
		if dir, _ := path.Split(f.Path); dir != "" {
			counts[strings.TrimSuffix(dir, "/")]++
		}
		sum, err := sha256File(filepath.Join(arcDir, filepath.FromSlash(f.Path)))
		if err != nil {
			return err
		}
		if sum != f.SHA256 {
			return fmt.Errorf("%s changed", f.Path)
		}
	}
	for split, want := range map[string]int{"training": opts.ExpectedTraining, "evaluation": opts.ExpectedEvaluation} {
		if counts[split] == 0 || (want > 0 && counts[split] != want) {
			return fmt.Errorf("manifest lists %d %s tasks, want %d", counts[split], split, want)
		}
	}
	return nil
}

func sha256File(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// arcProgressReader counts the bytes read and reports them.
type arcProgressReader struct {
	r           io.Reader
	read, total int64
	progress    func(read, total int64)
}

func (p *arcProgressReader) Read(b []byte) (int, error) {
	n, err := p.r.Read(b)
	p.read += int64(n)
	if p.progress != nil && n > 0 {
		p.progress(p.read, p.total)
	}
	return n, err
}

// fetchARCArchive downloads opts.URL into zipPath, at most maxARCArchiveBytes.
func fetchARCArchive(ctx context.Context, opts DownloadOptions, zipPath string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, opts.URL, nil)
	if err != nil {
		return err
	}
	req.Header.Set("User-Agent", arcDownloadUserAgent)
	resp, err := opts.Client.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP status %s", resp.Status)
	}
	if resp.ContentLength > maxARCArchiveBytes {
		return fmt.Errorf("archive is %d bytes, more than the limit of %d", resp.ContentLength, maxARCArchiveBytes)
	}
	f, err := os.Create(zipPath)
	if err != nil {
		return err
	}
	body := &arcProgressReader{r: io.LimitReader(resp.Body, maxARCArchiveBytes+1), total: resp.ContentLength,
		progress: opts.Progress}
	n, err := io.Copy(f, body)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err != nil {
		return err
	}
	if n > maxARCArchiveBytes {
		return fmt.Errorf("archive is more than the limit of %d bytes", maxARCArchiveBytes)
	}
	if resp.ContentLength >= 0 && n != resp.ContentLength {
		return fmt.Errorf("archive truncated: got %d of %d bytes", n, resp.ContentLength)
	}
	return nil
}

// arcArchiveEntry classifies a zip entry name "<root>/data/<split>/<id>.json" or "<root>/LICENSE": it
// returns the destination path relative to the arc directory (with forward slashes), or "" to skip it.
func arcArchiveEntry(name string) string {
	parts := strings.Split(name, "/")
	switch {
	case len(parts) == 2 && parts[1] == "LICENSE":
		return "LICENSE"
	case len(parts) == 4 && parts[1] == "data" && (parts[2] == "training" || parts[2] == "evaluation"):
		base := parts[3]
		id := strings.TrimSuffix(base, ".json")
		if !strings.HasSuffix(base, ".json") || id == "" ||
			strings.ContainsAny(base, `\:`) || strings.HasPrefix(base, ".") {
			return ""
		}
		return parts[2] + "/" + base
	}
	return ""
}

// extractARCArchive extracts and checks the ARC files of the zip into dst/training, dst/evaluation and
// dst/LICENSE, and returns their manifest.
func extractARCArchive(ctx context.Context, zipPath, dst string, opts DownloadOptions) (*arcManifest, error) {
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		return nil, fmt.Errorf("not a valid zip archive: %w", err)
	}
	defer func() { _ = zr.Close() }()
	for _, split := range []string{"training", "evaluation"} {
		if err := os.MkdirAll(filepath.Join(dst, split), 0o755); err != nil {
			return nil, err
		}
	}
	m := &arcManifest{Source: opts.URL, Downloaded: time.Now().UTC().Format(time.RFC3339)}
	seen := map[string]string{}
	var badFiles []error
	for _, zf := range zr.File {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rel := arcArchiveEntry(zf.Name)
		if rel == "" || zf.FileInfo().IsDir() {
			continue
		}
		if prev, dup := seen[rel]; dup {
			badFiles = append(badFiles, fmt.Errorf("%s: duplicate of %s", zf.Name, prev))
			continue
		}
		seen[rel] = zf.Name
		data, err := readARCZipEntry(zf)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", zf.Name, err)
		}
		if rel != "LICENSE" {
			if _, err := ParseTask(strings.TrimSuffix(path.Base(rel), ".json"), data); err != nil {
				badFiles = append(badFiles, fmt.Errorf("%s: %w", zf.Name, err))
				continue
			}
			if strings.HasPrefix(rel, "training/") {
				m.Training++
			} else {
				m.Evaluation++
			}
		}
		if err := os.WriteFile(filepath.Join(dst, filepath.FromSlash(rel)), data, 0o644); err != nil {
			return nil, err
		}
		sum := sha256.Sum256(data)
		m.Files = append(m.Files, arcManifestRecord{Path: rel, SHA256: hex.EncodeToString(sum[:])})
	}
	if len(badFiles) > 0 {
		return nil, fmt.Errorf("%d invalid task files:\n%w", len(badFiles), errors.Join(badFiles...))
	}
	for _, c := range []struct {
		split     string
		got, want int
	}{{"training", m.Training, opts.ExpectedTraining}, {"evaluation", m.Evaluation, opts.ExpectedEvaluation}} {
		if c.got == 0 || (c.want > 0 && c.got != c.want) {
			return nil, fmt.Errorf("archive has %d %s tasks under <root>/data/%s, expected %d",
				c.got, c.split, c.split, c.want)
		}
	}
	sort.Slice(m.Files, func(i, j int) bool { return m.Files[i].Path < m.Files[j].Path })
	m.Count = len(m.Files)
	return m, nil
}

func readARCZipEntry(zf *zip.File) ([]byte, error) {
	if zf.UncompressedSize64 > maxARCEntryBytes {
		return nil, fmt.Errorf("entry of %d bytes is over the limit of %d", zf.UncompressedSize64, maxARCEntryBytes)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rc.Close() }()
	data, err := io.ReadAll(io.LimitReader(rc, maxARCEntryBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxARCEntryBytes {
		return nil, fmt.Errorf("entry is over the limit of %d bytes", maxARCEntryBytes)
	}
	return data, nil
}

// installARC moves the checked files of tmp into arcDir: it removes the old manifest, swaps in the
// training and evaluation directories (keeping the old ones aside until the new ones are in place) and
// the license, and writes the manifest last.
func installARC(tmp, arcDir string, m *arcManifest) error {
	if err := os.MkdirAll(arcDir, 0o755); err != nil {
		return err
	}
	manifestPath := filepath.Join(arcDir, ARCManifestName)
	if err := os.Remove(manifestPath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, split := range []string{"training", "evaluation"} {
		dst := filepath.Join(arcDir, split)
		old := filepath.Join(tmp, "old-"+split)
		hadOld := false
		if _, err := os.Lstat(dst); err == nil {
			if err := os.Rename(dst, old); err != nil {
				return err
			}
			hadOld = true
		}
		if err := os.Rename(filepath.Join(tmp, split), dst); err != nil {
			if hadOld {
				_ = os.Rename(old, dst)
			}
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(tmp, "LICENSE")); err == nil {
		if err := os.Rename(filepath.Join(tmp, "LICENSE"), filepath.Join(arcDir, "LICENSE")); err != nil {
			return err
		}
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	tmpManifest := filepath.Join(tmp, ARCManifestName)
	if err := os.WriteFile(tmpManifest, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmpManifest, manifestPath)
}
