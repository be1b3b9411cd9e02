// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/latformer/latformer/lattice"
)

// templateFuncs are the helpers of the page templates.
var templateFuncs = template.FuncMap{
	"saved": savedTime,
	"wbr":   breakAfterCompose,
}

// breakAfterCompose escapes an action string and lets the browser break the line after each "∘".
func breakAfterCompose(s string) template.HTML {
	parts := strings.Split(s, lattice.ComposeSeparator)
	for i, p := range parts {
		parts[i] = template.HTMLEscapeString(p)
	}
	return template.HTML(strings.Join(parts, lattice.ComposeSeparator+"<wbr>"))
}

// ---------------------------------------------------------------------------------------------------
// Saving a label (POST /task/{id}/label).

// maxFormBytes bounds the body of a label form.
const maxFormBytes = 64 << 10

func (s *Server) handleLabel(w http.ResponseWriter, r *http.Request) {
	e, ok := s.lookup(w, r)
	if !ok {
		return
	}
	f, err := s.parseFilters(r.URL.Query())
	if err != nil {
		s.fail(w, r, http.StatusBadRequest, "Bad filter: "+err.Error()+".")
		return
	}
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
		s.fail(w, r, http.StatusBadRequest,
			fmt.Sprintf("The label form must be posted as application/x-www-form-urlencoded, not %q.", ct))
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
	if err := r.ParseForm(); err != nil {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("The form cannot be read (at most %d KiB): %v.",
			maxFormBytes>>10, err))
		return
	}
	form := r.PostForm
	for k := range form {
		if k != "priors" && k != "note" && k != "action" {
			s.fail(w, r, http.StatusBadRequest,
				fmt.Sprintf("Unexpected form field %q (the form has priors, note and action).", k))
			return
		}
	}
	if len(form["note"]) > 1 || len(form["action"]) > 1 {
		s.fail(w, r, http.StatusBadRequest, "The note and the action must be given once.")
		return
	}
	back := url.Values{}
	for k, v := range f.values() {
		back[k] = v
	}
	switch form.Get("action") {
	case "save":
		l := Label{TaskID: e.task.ID, Split: e.split, Priors: form["priors"], Note: form.Get("note")}
		if _, err := CheckLabel(l); err != nil {
			s.fail(w, r, http.StatusBadRequest, "The label was not saved: "+err.Error()+". Go back to correct it.")
			return
		}
		if err := s.labels.Put(l); err != nil {
			s.log.Printf("saving the label of %s: %v", e.task.ID, err)
			s.fail(w, r, http.StatusInternalServerError, "The label could not be saved: "+err.Error())
			return
		}
		back.Set("saved", "1")
	case "delete":
		if err := s.labels.Delete(e.task.ID); err != nil {
			s.log.Printf("removing the label of %s: %v", e.task.ID, err)
			s.fail(w, r, http.StatusInternalServerError, "The label could not be removed: "+err.Error())
			return
		}
		back.Set("deleted", "1")
	case "":
		s.fail(w, r, http.StatusBadRequest, "The form has no action: want action=save or action=delete.")
		return
	default:
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("Unknown action %q: want save or delete.", form.Get("action")))
		return
	}
	http.Redirect(w, r, "/task/"+e.task.ID+"?"+back.Encode(), http.StatusSeeOther)
}

// ---------------------------------------------------------------------------------------------------
// Thumbnails and the labels file.

func (s *Server) handleThumb(w http.ResponseWriter, r *http.Request) {
	file := r.PathValue("file")
	id, ok := strings.CutSuffix(file, ".png")
	if !ok || !ValidTaskID(id) {
		s.fail(w, r, http.StatusBadRequest, fmt.Sprintf("%q is not a thumbnail name: want <task id>.png.", file))
		return
	}
	e, ok := s.tasks[id]
	if !ok {
		s.fail(w, r, http.StatusNotFound, fmt.Sprintf("No task %q in the data directory.", id))
		return
	}
	data, cached := s.thumbs.Load(id)
	if !cached {
		png, err := thumbnail(e.task)
		if err != nil {
			s.log.Printf("thumbnail of %s: %v", id, err)
			s.fail(w, r, http.StatusInternalServerError, "The thumbnail cannot be drawn.")
			return
		}
		data, _ = s.thumbs.LoadOrStore(id, png)
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "max-age=3600")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(data.([]byte))
}

func (s *Server) handleLabelsJSON(w http.ResponseWriter, r *http.Request) {
	labels, err := s.labels.All()
	if err != nil {
		s.fail(w, r, http.StatusInternalServerError, "The labels file cannot be read: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="labels.json"`)
	if err := writeJSON(w, labelsFile{Format: LabelsFormat, Labels: labels}); err != nil {
		s.log.Printf("writing labels.json: %v", err)
	}
}

// savedTime formats a label's time for the page.
func savedTime(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }
