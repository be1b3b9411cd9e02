// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/latformer/latformer/browser"
)

// TestServeFlags checks the flags of `latformer serve`: mistakes are usage errors that name the flag,
// --results may be repeated and comma-separated, and the defaults listen on loopback.
func TestServeFlags(t *testing.T) {
	data := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--data", data, "--addr", "8080"}, `--addr "8080": want host:port`},
		{[]string{"--data", data, "--addr", "localhost"}, "want host:port"},
		{[]string{"--data", data, "--annotation", "three"}, `--annotation "three"`},
		{[]string{"--data", data, "--labels", ""}, "--labels: empty path"},
		{[]string{"--data", data, "--no-such-flag"}, "not defined"},
		{[]string{"--data", data, "extra"}, "unexpected arguments"},
	} {
		_, err := parseServeFlags(c.args)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: want a usage error containing %q, got %v", c.args, c.want, err)
		}
	}
	opts, err := parseServeFlags([]string{"--data", data, "--results", "a.csv", "--results", "b.csv,c.csv"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(opts.browser.Results, []string{"a.csv", "b.csv", "c.csv"}) {
		t.Errorf("--results: %v", opts.browser.Results)
	}
	if opts.addr != "127.0.0.1:8080" || !loopbackHost(opts.addr) || opts.browser.Labels != filepath.Join("runs", "labels.json") {
		t.Errorf("defaults: addr %q, labels %q", opts.addr, opts.browser.Labels)
	}
	if got := exitCode("serve", runServe, []string{"-h"}); got != 0 {
		t.Errorf("latformer serve -h: exit status %d, want 0", got)
	}
	if got := exitCode("serve", runServe, []string{"--addr", "x"}); got != 2 {
		t.Errorf("latformer serve --addr x: exit status %d, want 2", got)
	}
}

// TestLoopbackHost checks which addresses count as loopback (served with the Host guard, no warning).
func TestLoopbackHost(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "localhost:80": true, "[::1]:8080": true, "127.0.0.2:0": true,
		":8080": false, "0.0.0.0:8080": false, "[::]:80": false, "192.168.1.2:8080": false, "example.com:80": false, "nonsense": false,
	} {
		if got := loopbackHost(addr); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", addr, got, want)
		}
	}
}

// serveTestData writes a data directory with one ARC training task.
func serveTestData(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	split := filepath.Join(dir, "arc", "training")
	if err := os.MkdirAll(split, 0o755); err != nil {
		t.Fatal(err)
	}
	task := `{"train":[{"input":[[1,2],[3,4]],"output":[[3,4],[1,2]]}],"test":[{"input":[[5,6],[7,8]],"output":[[7,8],[5,6]]}]}`
	if err := os.WriteFile(filepath.Join(split, "0000abcd.json"), []byte(task), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startServe runs serve in the background and returns the URL it prints, the rest of its output and
// its error once ctx is cancelled.
func startServe(t *testing.T, ctx context.Context, opts serveOptions) (url string, lines <-chan string, done <-chan error) {
	t.Helper()
	r, w := io.Pipe()
	errc := make(chan error, 1)
	go func() {
		err := serve(ctx, opts, w)
		w.Close()
		errc <- err
	}()
	out := make(chan string, 100)
	sc := bufio.NewScanner(r)
	deadline := time.After(30 * time.Second)
	for url == "" {
		got := make(chan bool, 1)
		go func() { got <- sc.Scan() }()
		select {
		case ok := <-got:
			if !ok {
				t.Fatalf("serve stopped before listening: %v", <-errc)
			}
			line := sc.Text()
			out <- line
			if rest, ok := strings.CutPrefix(line, "serving "); ok {
				url = strings.Fields(rest)[0]
			}
		case <-deadline:
			t.Fatal("serve printed no URL in 30 s")
		}
	}
	go func() {
		for sc.Scan() {
			out <- sc.Text()
		}
		close(out)
	}()
	return url, out, errc
}

// TestServeStartsAndStops starts the server on a free loopback port, fetches the list, a task page and
// a request with a foreign Host (refused), then cancels the context (as Ctrl-C does): serve returns nil
// after printing "stopped".
func TestServeStartsAndStops(t *testing.T) {
	data := serveTestData(t)
	labels := filepath.Join(t.TempDir(), "sub", "labels.json") // the directory is created
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, lines, done := startServe(t, ctx, serveOptions{addr: "127.0.0.1:0", browser: browserOpts(data, labels)})
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("URL %q", url)
	}
	for path, want := range map[string]int{"/": 200, "/task/0000abcd": 200, "/task/..%2fx": 400, "/task/ffffffff": 404} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("GET %s: %d, want %d", path, resp.StatusCode, want)
		}
	}
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Host = "rebind.example:80"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("a foreign Host on a loopback server: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	http.DefaultClient.CloseIdleConnections() // as a browser tab closed: no spare connection left open
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after cancel: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop in 10 s")
	}
	var all []string
	for l := range lines {
		all = append(all, l)
	}
	if !slices.Contains(all, "stopped") {
		t.Errorf("output %q lacks \"stopped\"", all)
	}
	if _, err := os.Stat(filepath.Dir(labels)); err != nil {
		t.Errorf("the labels directory was not created: %v", err)
	}
}

// TestServeNonLoopbackWarns checks that listening on every interface prints a warning (and serves
// requests for any Host, since the guard is for loopback servers).
func TestServeNonLoopbackWarns(t *testing.T) {
	data := serveTestData(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, lines, done := startServe(t, ctx, serveOptions{addr: "0.0.0.0:0", browser: browserOpts(data, filepath.Join(t.TempDir(), "labels.json"))})
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Host = "workstation.lan"
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("GET with another Host: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var all []string
	for l := range lines {
		all = append(all, l)
	}
	if len(all) == 0 || !strings.HasPrefix(all[0], "warning: listening on 0.0.0.0:") {
		t.Errorf("no warning: %q", all)
	}
}

// TestServeErrors checks that a bad data directory, results file or a busy port stop serve with an
// error that names it.
func TestServeErrors(t *testing.T) {
	data := serveTestData(t)
	labels := filepath.Join(t.TempDir(), "labels.json")
	ctx := context.Background()
	missing := browserOpts(data, labels)
	missing.Results = []string{filepath.Join(data, "nope.csv")}
	for name, c := range map[string]struct {
		opts serveOptions
		want string
	}{
		"no data":         {serveOptions{addr: "127.0.0.1:0", browser: browserOpts(t.TempDir(), labels)}, "no ARC task"},
		"missing results": {serveOptions{addr: "127.0.0.1:0", browser: missing}, "nope.csv"},
		"bad port":        {serveOptions{addr: "127.0.0.1:99999", browser: browserOpts(data, labels)}, "listening on 127.0.0.1:99999"},
	} {
		if err := serve(ctx, c.opts, io.Discard); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: want an error containing %q, got %v", name, c.want, err)
		}
	}
}

// browserOpts are the options of a test server (warnings discarded).
func browserOpts(data, labels string) browser.Options {
	return browser.Options{DataDir: data, Labels: labels, Log: io.Discard}
}

// TestServeStopsWithASilentConnection holds a connection open that never sends a request (as a browser's
// preconnect does), then cancels: net/http's Shutdown counts it busy for 5 s, and serve must still stop
// cleanly (nil, "stopped") rather than fail with the shutdown's deadline.
func TestServeStopsWithASilentConnection(t *testing.T) {
	data := serveTestData(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, _, done := startServe(t, ctx, serveOptions{addr: "127.0.0.1:0",
		browser: browserOpts(data, filepath.Join(t.TempDir(), "labels.json"))})
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	time.Sleep(100 * time.Millisecond) // accepted by the server
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after cancel, with a silent connection open: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop in 15 s")
	}
}
