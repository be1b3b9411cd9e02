// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/latformer/latformer/browser"
	"github.com/latformer/latformer/datasets"
)

// serveOptions are the parsed flags of `latformer serve`.
type serveOptions struct {
	browser browser.Options
	addr    string
}

// parseServeFlags parses the flags of `latformer serve` and checks them (the data directory resolved,
// --addr a host:port, the labels file's directory created).
func parseServeFlags(args []string) (serveOptions, error) {
	fs := newFlagSet("serve", "latformer serve [--data DIR] [--results CSV]... [--labels FILE] [--addr 127.0.0.1:8080]",
		"Serves a web page to browse the ARC tasks and label them (the paper's annotation interface, Appendix B.3,\n"+
			"Figure 7b): a task list with filters (split, category of the annotation, "+
			"solved in a results CSV), per task\n"+
			"its pairs, the annotation's category and actions, the predictions, "+
			"actions and masks of the results CSVs,\n"+
			"a form to label the priors a task needs (saved atomically to --labels), and the labels next to the\n"+
			"definition (/export). Listens on the loopback interface unless --addr says otherwise; Ctrl-C stops it.")
	dataFlag := fs.String("data", "",
		"data directory holding arc/<split>/*.json (default $"+datasets.EnvDataDir+", else ./data)")
	results := stringsFlag(fs, "results", nil, "a results `CSV` written by latformer arc, to show its "+
		"predictions, actions and masks; repeat the flag or separate with commas for several")
	labels := fs.String("labels", filepath.Join("runs", "labels.json"),
		"labels JSON file (created on the first save; its directory is created if missing)")
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on, host:port (port 0: any free port); "+
		"a non-loopback host makes the page reachable from other machines")
	annotation := fs.String("annotation", "one-action",
		"definition that categorizes the tasks: one-action (annotate.Task) or two-actions (annotate.TwoActions)")
	if err := parseFlags(fs, args); err != nil {
		return serveOptions{}, err
	}
	if _, _, err := net.SplitHostPort(*addr); err != nil {
		return serveOptions{}, usageError{
			fmt.Errorf("--addr %q: want host:port, e.g. 127.0.0.1:8080 (%v)", *addr, err), fs,
		}
	}
	if *annotation != "one-action" && *annotation != "two-actions" {
		return serveOptions{}, usageError{
			fmt.Errorf("--annotation %q: want one-action or two-actions", *annotation), fs,
		}
	}
	if *labels == "" {
		return serveOptions{}, usageError{errors.New("--labels: empty path"), fs}
	}
	dataDir, err := datasets.DataDir(*dataFlag)
	if err != nil {
		return serveOptions{}, err
	}
	return serveOptions{addr: *addr,
		browser: browser.Options{DataDir: dataDir, Results: *results, Labels: *labels, Annotation: *annotation}}, nil
}

// loopbackHost reports whether the host of addr (host:port) is a loopback address or "localhost". An
// empty host (":8080") listens on every interface and is not loopback.
func loopbackHost(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func runServe(args []string) error {
	opts, err := parseServeFlags(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, opts, os.Stdout)
}

// serve loads the browser, listens on opts.addr, prints the URL and serves until ctx is done, then shuts
// the server down cleanly (requests in flight finish, at most 5 s).
func serve(ctx context.Context, opts serveOptions, out io.Writer) error {
	if dir := filepath.Dir(opts.browser.Labels); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("labels file %s: %w", opts.browser.Labels, err)
		}
	}
	loopback := loopbackHost(opts.addr)
	opts.browser.LoopbackOnly = loopback
	srv, err := browser.New(opts.browser)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", opts.addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", opts.addr, err)
	}
	// The address as asked for, with the port the system chose for port 0.
	host, _, _ := net.SplitHostPort(opts.addr)
	port := "0"
	if tcp, ok := ln.Addr().(*net.TCPAddr); ok {
		port = fmt.Sprint(tcp.Port)
	}
	listening := net.JoinHostPort(host, port)
	if !loopback {
		fmt.Fprintf(out, "warning: listening on %s, not a loopback address: "+
			"anyone who can reach this machine can read the tasks and change the labels\n", listening)
	}
	fmt.Fprintf(out, "%d ARC tasks (%s), %d results file(s), labels in %s\n", srv.NumTasks(),
		strings.Join(srv.Splits(), ", "), len(opts.browser.Results), srv.LabelsPath())
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		listening = net.JoinHostPort("127.0.0.1", port) // every interface: this machine's loopback is one
	}
	fmt.Fprintf(out, "serving http://%s/ (Ctrl-C to stop)\n", listening)
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serving on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil {
		// A connection that never sent a request (a browser's preconnect, a client's spare dial) counts as
		// busy for 5 s in net/http's Shutdown: close what is left instead of failing.
		if err := hs.Close(); err != nil {
			return fmt.Errorf("stopping the server: %w", err)
		}
	}
	<-done // http.ErrServerClosed
	fmt.Fprintln(out, "stopped")
	return nil
}
