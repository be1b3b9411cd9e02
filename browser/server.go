// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log"
	"net"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
	"github.com/latformer/latformer/experiments/arc"
)

// Options configure a Server.
type Options struct {
	// DataDir holds arc/<split>/*.json (the directory datasets.DataDir resolves). Every split found there
	// (training, evaluation) is listed; at least one must be.
	DataDir string
	// Results are results CSVs of `latformer arc` (read with arc.ReadResults; files in an older format
	// are fine, they only lack the predictions). Each becomes a column of the list and a section of the
	// task page, named after the file.
	Results []string
	// Labels is the path of the labels JSON file (see LabelStore); its directory must exist.
	Labels string
	// Annotation is the definition the tasks are categorized by: "one-action" (default: annotate.Task,
	// committed for the training split as annotate.Default) or "two-actions"
	// (annotate.TwoActions, annotate.DefaultTwoActions). Tasks without a committed annotation
	// (the evaluation split) are annotated when the server starts (about 6 s for 400 tasks on 2 cores).
	Annotation string
	// LoopbackOnly refuses requests whose Host header is not a loopback name (localhost, 127.0.0.1, ::1),
	// a guard against DNS rebinding for a server that listens on a loopback address.
	LoopbackOnly bool
	// Log receives warnings (bad task files, results rows of unknown tasks) and handler failures; nil:
	// the standard logger's output.
	Log io.Writer
}

// Server is the ARC browser: an http.Handler serving the task list, the task pages, the labelling form
// and the export (see the package documentation). It reads the data and the results once, in New; the
// labels file is read on every request and written on every save.
type Server struct {
	opts       Options
	annotation string
	splits     []string              // the splits found, in order (training first)
	tasks      map[string]*taskEntry // by id
	order      []*taskEntry          // by split, then id
	runs       []*resultsRun
	labels     *LabelStore
	handler    http.Handler
	log        *log.Logger
	tmpl       *template.Template
	thumbs     sync.Map // id -> []byte (PNG)
}

// taskEntry is a task with its split and annotation.
type taskEntry struct {
	task  datasets.Task
	split string
	ann   annotate.Annotation
}

// resultsRun is one results CSV.
type resultsRun struct {
	name    string // the file's base name (made unique)
	path    string
	results map[string]arc.Result
	note    string // e.g. "older format: no predictions"
}

//go:embed templates/*.html
var templateFS embed.FS

// New loads the tasks of opts.DataDir, their annotation, the results CSVs and the labels file, and
// returns the server. Errors name the file or option at fault: no ARC split in the data directory, an
// unreadable results file, an invalid labels file (never overwritten).
func New(opts Options) (*Server, error) {
	s := &Server{opts: opts, tasks: map[string]*taskEntry{}}
	var logw io.Writer = log.Writer()
	if opts.Log != nil {
		logw = opts.Log
	}
	s.log = log.New(logw, "latformer serve: ", 0)
	s.annotation = opts.Annotation
	if s.annotation == "" {
		s.annotation = "one-action"
	}
	if s.annotation != "one-action" && s.annotation != "two-actions" {
		return nil, fmt.Errorf("annotation %q: want one-action or two-actions", opts.Annotation)
	}
	tmpl, err := template.New("pages").Funcs(templateFuncs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("browser templates: %w", err) // a programmer error, but no panic
	}
	s.tmpl = tmpl
	if err := s.loadTasks(); err != nil {
		return nil, err
	}
	if err := s.annotate(); err != nil {
		return nil, err
	}
	if err := s.loadResults(); err != nil {
		return nil, err
	}
	if s.labels, err = OpenLabels(opts.Labels); err != nil {
		return nil, err
	}
	s.handler = s.routes()
	return s, nil
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.handler.ServeHTTP(w, r) }

// NumTasks returns the number of tasks listed.
func (s *Server) NumTasks() int { return len(s.order) }

// Splits returns the ARC splits found in the data directory.
func (s *Server) Splits() []string { return append([]string(nil), s.splits...) }

// LabelsPath returns the path of the labels file.
func (s *Server) LabelsPath() string { return s.labels.Path() }

// loadTasks lists the tasks of every split of the data directory.
func (s *Server) loadTasks() error {
	var missing []string
	for _, split := range []string{"training", "evaluation"} {
		dir, err := datasets.ARCSplitDir(s.opts.DataDir, split)
		if err != nil {
			missing = append(missing, err.Error())
			continue
		}
		tasks, err := datasets.LoadDir(dir)
		if err != nil {
			if len(tasks) == 0 {
				return fmt.Errorf("ARC %s split: %w", split, err)
			}
			s.log.Printf("warning: %v", err) // bad files are listed, the good ones kept
		}
		n := 0
		for _, t := range tasks {
			if !ValidTaskID(t.ID) {
				s.log.Printf(
					"warning: %s: task file name %q is not a valid task id (letters, digits, - and _): left out",
					dir, t.ID)
				continue
			}
			if prev, dup := s.tasks[t.ID]; dup {
				s.log.Printf("warning: task %s is in both the %s and the %s split: the %s one is shown",
					t.ID, prev.split, split, prev.split)
				continue
			}
			e := &taskEntry{task: t, split: split}
			s.tasks[t.ID] = e
			s.order = append(s.order, e)
			n++
		}
		if n > 0 {
			s.splits = append(s.splits, split)
		}
	}
	if len(s.order) == 0 {
		return fmt.Errorf("no ARC task in data directory %q: %s", s.opts.DataDir, strings.Join(missing, "; "))
	}
	return nil
}

// annotate gives every task its annotation: the committed one when there is one, else the definition
// run now.
func (s *Server) annotate() error {
	committed, annotateFn := annotate.Default, annotate.Task
	if s.annotation == "two-actions" {
		committed, annotateFn = annotate.DefaultTwoActions, annotate.TwoActions
	}
	anns, err := committed()
	if err != nil {
		return err
	}
	var todo []*taskEntry
	for _, e := range s.order {
		if a, ok := anns[e.task.ID]; ok {
			e.ann = a
		} else {
			todo = append(todo, e)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	if len(todo) > 20 {
		s.log.Printf("annotating %d tasks without a committed annotation (definition: %s)...", len(todo), s.annotation)
	}
	var wg sync.WaitGroup
	next := make(chan *taskEntry)
	for range max(1, min(4, len(todo))) {
		wg.Go(func() {
			for e := range next {
				e.ann = annotateFn(e.task)
			}
		})
	}
	for _, e := range todo {
		next <- e
	}
	close(next)
	wg.Wait()
	return nil
}

// loadResults reads the results CSVs.
func (s *Server) loadResults() error {
	names := map[string]int{}
	for _, path := range s.opts.Results {
		results, err := arc.ReadResults(path)
		run := &resultsRun{path: path, results: results}
		switch {
		case errors.Is(err, arc.ErrOldResults):
			run.note = "older format: predictions not recorded"
		case err != nil && len(results) == 0:
			return fmt.Errorf("results file: %w", err)
		case err != nil:
			s.log.Printf("warning: %v (the %d rows of the other lines are shown)", err, len(results))
			run.note = fmt.Sprintf("a malformed line skipped (%d rows)", len(results))
		}
		base := filepath.Base(path)
		names[base]++
		run.name = base
		if names[base] > 1 {
			run.name = fmt.Sprintf("%s (%d)", base, names[base])
		}
		var unknown []string
		for id := range results {
			if _, ok := s.tasks[id]; !ok {
				unknown = append(unknown, id)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			s.log.Printf("warning: %s: %d tasks not in the data directory (not shown): %s", path, len(unknown),
				strings.Join(unknown, ", "))
		}
		s.runs = append(s.runs, run)
	}
	return nil
}

// routes builds the handler: the pages, behind the panic guard, the host guard and the cross-origin
// protection of the forms.
func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleList)
	mux.HandleFunc("GET /task/{id}", s.handleTask)
	mux.HandleFunc("POST /task/{id}/label", s.handleLabel)
	mux.HandleFunc("GET /thumb/{file}", s.handleThumb)
	mux.HandleFunc("GET /export", s.handleExport)
	mux.HandleFunc("GET /export.csv", s.handleExportCSV)
	mux.HandleFunc("GET /labels.json", s.handleLabelsJSON)
	mux.HandleFunc("/", s.handleNotFound)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, http.StatusForbidden, "This form was posted from another site: refused (cross-origin request).")
	}))
	var h http.Handler = cop.Handler(mux)
	if s.opts.LoopbackOnly {
		h = s.loopbackOnly(h)
	}
	return s.recoverPanics(h)
}

// recoverPanics turns a panic inside a handler into a 500 page with a short message (the details go to
// the log), never a stack trace in the browser.
func (s *Server) recoverPanics(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Printf("internal error on %s %s: %v", r.Method, r.URL.Path, v)
				s.fail(w, r, http.StatusInternalServerError, "Internal error: the server's log has the details.")
			}
		}()
		h.ServeHTTP(w, r)
	})
}

// loopbackOnly refuses requests whose Host is not a loopback name.
func (s *Server) loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := r.Host
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
		ip := net.ParseIP(host)
		if !strings.EqualFold(host, "localhost") && (ip == nil || !ip.IsLoopback()) {
			s.fail(w, r, http.StatusForbidden,
				fmt.Sprintf("This server answers only requests for localhost or 127.0.0.1, not for host %q.", r.Host))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// errorPage is the data of the error template.
type errorPage struct {
	Status  int
	Title   string
	Message string
}

// fail writes an error page with the status and a message saying what is wrong.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, msg string) {
	var buf bytes.Buffer
	page := errorPage{Status: status, Title: http.StatusText(status), Message: msg}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.tmpl.ExecuteTemplate(&buf, "error", page); err != nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, "%d %s: %s\n", status, page.Title, msg)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(buf.Bytes())
	}
}

// render executes a page template into a buffer first, so that a template error gives a clean 500
// page instead of half a page.
func (s *Server) render(w http.ResponseWriter, r *http.Request, name string, data any) {
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		s.log.Printf("internal error rendering %s for %s: %v", name, r.URL.Path, err)
		s.fail(w, r, http.StatusInternalServerError,
			"Internal error while drawing the page: the server's log has the details.")
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(buf.Bytes())
}

// handleNotFound answers every path no page has.
func (s *Server) handleNotFound(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.fail(w, r, http.StatusMethodNotAllowed, fmt.Sprintf("%s is not allowed on %s.", r.Method, r.URL.Path))
		return
	}
	s.fail(w, r, http.StatusNotFound, fmt.Sprintf("There is no page %s here. The task list is at /.", r.URL.Path))
}
