// Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0

package browser

import (
	"encoding/csv"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/latformer/latformer/datasets"
	"github.com/latformer/latformer/datasets/annotate"
)

// TestBrowserAnnotationFixture checks the fixture's premise: the definition puts each task in the
// category it was built for (the tasks are not in the committed annotation, so New runs annotate.Task).
func TestBrowserAnnotationFixture(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	want := map[string]datasets.Category{idReflect: "reflect", idRotate: "rotate", idTranslate: "translate", idNone: "none", idEval: "reflect"}
	if s.NumTasks() != len(want) {
		t.Errorf("%d tasks listed, want %d (the bad files left out)", s.NumTasks(), len(want))
	}
	for id, cat := range want {
		if got := s.tasks[id].ann.Category; got != cat {
			t.Errorf("task %s: category %q, want %q", id, got, cat)
		}
	}
	if !slices.Equal(s.Splits(), []string{"training", "evaluation"}) {
		t.Errorf("splits %v", s.Splits())
	}
}

// TestBrowserListFilters checks every filter of the list: the rows shown are exactly the tasks that
// pass it.
func TestBrowserListFilters(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	// Labels for the label filters: the reflect task agrees, the rotate task disagrees.
	if err := s.labels.Put(Label{TaskID: idReflect, Split: "training", Priors: []string{"reflection"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.labels.Put(Label{TaskID: idRotate, Split: "training", Priors: []string{"reflection", "counting"}}); err != nil {
		t.Fatal(err)
	}
	all := []string{idReflect, idRotate, idTranslate, idNone, idEval}
	cases := map[string][]string{
		"/":                                 all,
		"/?split=all&category=all":          all,
		"/?split=training":                  {idReflect, idRotate, idTranslate, idNone},
		"/?split=evaluation":                {idEval},
		"/?category=reflect":                {idReflect, idEval},
		"/?category=reflect&split=training": {idReflect},
		"/?category=rotate":                 {idRotate},
		"/?category=translate":              {idTranslate},
		"/?category=scale":                  nil,
		"/?category=none":                   {idNone},
		"/?category=geometric":              {idReflect, idRotate, idTranslate, idEval},
		"/?solved=solved":                   {idReflect},
		"/?solved=unsolved":                 {idRotate, idTranslate},
		"/?solved=not-run":                  {idNone, idEval},
		"/?solved=solved&run=2":             {idReflect},
		"/?solved=unsolved&run=2":           nil,
		"/?solved=not-run&run=2":            {idRotate, idTranslate, idNone, idEval},
		"/?label=labelled":                  {idReflect, idRotate},
		"/?label=unlabelled":                {idTranslate, idNone, idEval},
		"/?label=agree":                     {idReflect},
		"/?label=disagree":                  {idRotate},
		"/?q=aaaa":                          {idReflect},
		"/?q=000":                           all,
		"/?q=0005&category=reflect":         {idEval},
		"/?category=reflect&solved=not-run": {idEval},
		"/?unrelated=1&category=translate":  {idTranslate},
	}
	for target, want := range cases {
		code, body := get(t, s, target)
		if code != http.StatusOK {
			t.Errorf("GET %s: status %d", target, code)
			continue
		}
		slices.Sort(want)
		if got := listed(body); !slices.Equal(got, want) {
			t.Errorf("GET %s: rows %v, want %v", target, got, want)
		}
		if !strings.Contains(body, fmt.Sprintf(`<b id="shown">%d</b> of 5 tasks`, len(want))) {
			t.Errorf("GET %s: the summary does not say %d of 5", target, len(want))
		}
	}
	// The category bar counts under the other filters, and links keep them.
	_, body := get(t, s, "/?split=training")
	for _, want := range []string{`href="/?category=reflect&amp;split=training" class="" data-category="reflect">Reflect<span class="n">1</span>`,
		`data-category="">All<span class="n">4</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the category bar lacks %s", want)
		}
	}
	// Task links keep the filters, for previous and next.
	_, body = get(t, s, "/?category=reflect")
	if !strings.Contains(body, `href="/task/aaaa0001?category=reflect"`) {
		t.Errorf("task links do not keep the filter")
	}
}

// TestBrowserListBadFilters checks that a bad filter value is a 400 page that says what is accepted.
func TestBrowserListBadFilters(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	cases := map[string]string{
		"/?category=Reflect":                   "want one of all, geometric, translate, rotate, reflect, scale, none",
		"/?category=%3Cscript%3E":              "filter category=",
		"/?split=test":                         "want one of all, training, evaluation",
		"/?solved=yes":                         "want one of all, solved, unsolved, not-run",
		"/?label=maybe":                        "want one of all, labelled, unlabelled, agree, disagree",
		"/?run=3":                              "from 1 to 2",
		"/?run=x":                              "from 1 to 2",
		"/?q=..%2F..%2Fetc":                    "a task id holds only",
		"/?category=reflect&category=rotate":   "given 2 times",
		"/task/" + idReflect + "?solved=maybe": "want one of all, solved",
	}
	for target, want := range cases {
		code, body := get(t, s, target)
		if code != http.StatusBadRequest {
			t.Errorf("GET %s: status %d, want 400", target, code)
		}
		if !strings.Contains(body, want) || !strings.Contains(body, `id="error-message"`) {
			t.Errorf("GET %s: the page does not say %q", target, want)
		}
		if strings.Contains(body, "<script>") {
			t.Errorf("GET %s: the input is echoed unescaped", target)
		}
		noLeak(t, target, body)
	}
	// Without a results file the solved filter is an error too.
	s2, err := New(Options{DataDir: fx.data, Labels: fx.labels, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if code, body := get(t, s2, "/?solved=solved"); code != http.StatusBadRequest || !strings.Contains(body, "needs a results CSV") {
		t.Errorf("solved filter without results: %d", code)
	}
}

// TestBrowserTaskPage checks the task page: the pairs as pictures, the definition's category and
// per-pair actions, and per results CSV the prediction, exact or not, the action from the gates and the
// mask picture; an older results file says the prediction was not recorded.
func TestBrowserTaskPage(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	code, body := get(t, s, "/task/"+idReflect+"?category=reflect")
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	for _, want := range []string{
		`id="category">reflect<`,                                 // the definition's category
		`translate(5,0)∘<wbr>reflect(0)`,                         // the definition's action of a pair
		`alt="train 1 input (5x5)"`, `alt="test 1 output (5x5)"`, // the pairs as pictures
		`alt="prediction of results.csv for test 1 (5x5)"`,                                        // the prediction
		`results.csv: <span class="ok">exact</span>`,                                              // exact
		`<code>reflect(0)</code> (hard gates)`,                                                    // the action read from the gates
		`alt="mask of reflect(0) on a [5 5] lattice (25x25)"`,                                     // the mask
		`exactly the mask of reflect(0) on the 5x5 canvas`,                                        // with hard gates it is the model's mask
		`reflect(0) applied to test input 1 on the canvas`,                                        // g·x
		`<code>old.csv</code> <span class="small muted">(older format: predictions not recorded)`, // the older file
		`prediction not recorded`,                                                                 // its prediction
		`1 of 2 in this filter`, `href="/task/eeee0005?category=reflect" rel="next"`,              // position, next
		`name="priors" value="reflection"`, `name="note"`, // the label form
		`action="/task/aaaa0001/label?category=reflect"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the reflect task's page lacks %s", want)
		}
	}
	if n := strings.Count(body, `src="data:image/png;base64,`); n < 8+1+2*2 {
		t.Errorf("%d pictures, want at least 8 grids, 1 prediction and 2 masks with their g·x", n)
	}
	// Soft gates, no well-formed grid.
	_, body = get(t, s, "/task/"+idRotate)
	for _, want := range []string{"no well-formed grid predicted", "(soft gates)", "the action the soft gates round to", `alt="mask of rot90(0,1)x1`} {
		if !strings.Contains(body, want) {
			t.Errorf("the rotate task's page lacks %q", want)
		}
	}
	// Two actions ("g1 + g2"): one mask each; a wrong prediction.
	_, body = get(t, s, "/task/"+idTranslate)
	for _, want := range []string{`alt="mask of translate(0,1) on a [6 6] lattice (36x36)"`, `alt="mask of identity on a [6 6] lattice`, `results.csv: <span class="bad">wrong</span>`} {
		if !strings.Contains(body, want) {
			t.Errorf("the translate task's page lacks %q", want)
		}
	}
	// Not run.
	_, body = get(t, s, "/task/"+idNone)
	if !strings.Contains(body, "This task is not in this results file.") || !strings.Contains(body, "solvable with g = identity") {
		t.Errorf("the none task's page does not say it was not run, or the definition's note")
	}
}

// TestBrowserBadIDs checks that ids and file names from the URL are validated: traversal attempts,
// encoded dots and slashes, odd characters and over-long ids are 400 (or, for paths the router cleans,
// a redirect to a page that is not a task), unknown ids 404 with a message; nothing outside the data
// directory is ever read.
func TestBrowserBadIDs(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	cases := map[string]int{
		"/task/..%2F..%2Fetc%2Fpasswd":              http.StatusBadRequest,
		"/task/..%2fsecret":                         http.StatusBadRequest,
		"/task/%2e%2e%2f%2e%2e%2fsecret":            http.StatusBadRequest,
		"/task/a%2Fb":                               http.StatusBadRequest,
		"/task/aaaa0001.json":                       http.StatusBadRequest,
		"/task/aaaa0001%00":                         http.StatusBadRequest,
		"/task/aa%20aa":                             http.StatusBadRequest,
		"/task/%3Cscript%3Ealert(1)%3C%2Fscript%3E": http.StatusBadRequest,
		"/task/" + strings.Repeat("a", 65):          http.StatusBadRequest,
		"/task/%E2%88%98":                           http.StatusBadRequest,
		"/task/ffff0006":                            http.StatusNotFound, // a bad file: left out
		"/task/zzzz9999":                            http.StatusNotFound,
		"/task/secret":                              http.StatusNotFound,
		"/task/aaaa0001/label":                      http.StatusNotFound, // GET of the form's target
		"/thumb/..%2Fsecret.png":                    http.StatusBadRequest,
		"/thumb/aaaa0001.json":                      http.StatusBadRequest,
		"/thumb/aaaa0001":                           http.StatusBadRequest,
		"/thumb/zzzz9999.png":                       http.StatusNotFound,
		"/data/secret.txt":                          http.StatusNotFound,
		"/arc/passwd":                               http.StatusNotFound,
	}
	for target, want := range cases {
		code, body := get(t, s, target)
		if code != want {
			t.Errorf("GET %s: status %d, want %d", target, code, want)
		}
		if !strings.Contains(body, `id="error-message"`) {
			t.Errorf("GET %s: no error message", target)
		}
		noLeak(t, target, body)
	}
	// Paths with literal or encoded dot segments: the router cleans them and redirects; following
	// the redirect never reaches a file.
	for _, target := range []string{"/task/../../etc/passwd", "/task/%2e%2e", "/task/%2e%2e/%2e%2e/secret.json", "/thumb/../../secret.json", "/task/aaaa0001/../../../secret"} {
		for hop := 0; hop < 3; hop++ {
			req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil)
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			noLeak(t, target, rec.Body.String())
			if rec.Code == http.StatusOK && strings.HasPrefix(target, "/task/") {
				t.Errorf("GET %s: 200", target)
			}
			if rec.Code != http.StatusMovedPermanently && rec.Code != http.StatusTemporaryRedirect {
				break
			}
			target = rec.Header().Get("Location")
		}
	}
	// The 404 says which task is missing.
	if _, body := get(t, s, "/task/zzzz9999"); !strings.Contains(body, `No task &#34;zzzz9999&#34; in the data directory`) {
		t.Errorf("the 404 page does not name the task")
	}
}

// TestBrowserThumb checks the thumbnails are PNGs.
func TestBrowserThumb(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	req := httptest.NewRequest(http.MethodGet, "/thumb/"+idReflect+".png", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "image/png" {
		t.Fatalf("status %d, type %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	img, err := png.Decode(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	// Two 5x5 grids of 8-pixel cells with 1-pixel lines, 8 pixels apart.
	if b := img.Bounds(); b.Dx() != 2*(5*9+1)+8 || b.Dy() != 5*9+1 {
		t.Errorf("thumbnail %v", b)
	}
}

// TestBrowserSaveLabel checks the labelling round trip through the form: save, the page shows it,
// remove.
func TestBrowserSaveLabel(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	form := url.Values{"priors": {"reflection", "translation"}, "note": {"  upside down\r\nsecond line  "}, "action": {"save"}}
	rec := postForm(t, s, "/task/"+idReflect+"/label?category=reflect", form)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("save: status %d: %s", rec.Code, rec.Body.String())
	}
	if loc := rec.Header().Get("Location"); loc != "/task/"+idReflect+"?category=reflect&saved=1" {
		t.Errorf("redirect to %q", loc)
	}
	labels, err := s.labels.All()
	if err != nil {
		t.Fatal(err)
	}
	l := labels[idReflect]
	if !slices.Equal(l.Priors, []string{"translation", "reflection"}) || l.Note != "upside down\nsecond line" || l.Split != "training" || l.Saved.IsZero() {
		t.Errorf("saved label %+v", l)
	}
	_, body := get(t, s, "/task/"+idReflect+"?category=reflect&saved=1")
	for _, want := range []string{`id="flash">Label saved`, `value="reflection" checked`, `value="translation" checked`, ">upside down\nsecond line</textarea>",
		`id="agreement">agree<`, `id="delete"`} {
		if !strings.Contains(body, want) {
			t.Errorf("the page after saving lacks %q", want)
		}
	}
	if strings.Contains(body, `value="rotation" checked`) {
		t.Errorf("an unchosen prior is checked")
	}
	// Remove.
	rec = postForm(t, s, "/task/"+idReflect+"/label", url.Values{"action": {"delete"}})
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("delete: status %d", rec.Code)
	}
	if labels, _ := s.labels.All(); len(labels) != 0 {
		t.Errorf("labels after delete: %v", labels)
	}
	// A label with no prior is a label ("no prior marked": none).
	if rec := postForm(t, s, "/task/"+idNone+"/label", url.Values{"action": {"save"}, "note": {"recolor"}}); rec.Code != http.StatusSeeOther {
		t.Fatalf("save without priors: %d", rec.Code)
	}
	if _, body := get(t, s, "/task/"+idNone); !strings.Contains(body, "no prior marked") || !strings.Contains(body, `id="agreement">agree<`) {
		t.Errorf("a label without priors is not shown as none, agreeing with the definition")
	}
}

// TestBrowserBadForms checks that bad input to the label form is a 400 page that says what is wrong,
// that cross-origin posts are refused, and that none of them changes the labels file.
func TestBrowserBadForms(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	if err := s.labels.Put(Label{TaskID: idReflect, Split: "training", Priors: []string{"reflection"}, Note: "kept"}); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(fx.labels)
	if err != nil {
		t.Fatal(err)
	}
	target := "/task/" + idReflect + "/label"
	cases := []struct {
		name, target, body, contentType string
		status                          int
		message                         string
	}{
		{"unknown prior", target, "action=save&priors=telepathy", "", 400, `unknown prior &#34;telepathy&#34;`},
		{"note too long", target, "action=save&note=" + strings.Repeat("x", MaxNoteRunes+1), "", 400, "at most 2000 are allowed"},
		{"invalid UTF-8", target, "action=save&note=%ff%fe", "", 400, "not valid UTF-8"},
		{"control character", target, "action=save&note=a%07b", "", 400, "control character"},
		{"no action", target, "priors=reflection", "", 400, "The form has no action"},
		{"unknown action", target, "action=drop", "", 400, `Unknown action &#34;drop&#34;`},
		{"two notes", target, "action=save&note=a&note=b", "", 400, "given once"},
		{"unexpected field", target, "action=save&prior=reflection", "", 400, `Unexpected form field &#34;prior&#34;`},
		{"bad encoding", target, "action=save&note=%zz", "", 400, "The form cannot be read"},
		{"too large", target, "action=save&note=" + strings.Repeat("x", maxFormBytes), "", 400, "at most 64 KiB"},
		{"multipart", target, "--x\r\n", "multipart/form-data; boundary=x", 400, "must be posted as application/x-www-form-urlencoded"},
		{"JSON", target, `{"priors":["reflection"]}`, "application/json", 400, "must be posted as"},
		{"bad id", "/task/..%2Fsecret/label", "action=save", "", 400, "is not a task id"},
		{"unknown id", "/task/zzzz9999/label", "action=save", "", 404, "No task"},
		{"bad filter", target + "?category=x", "action=save", "", 400, "Bad filter"},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodPost, c.target, strings.NewReader(c.body))
		ct := c.contentType
		if ct == "" {
			ct = "application/x-www-form-urlencoded"
		}
		req.Header.Set("Content-Type", ct)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != c.status {
			t.Errorf("%s: status %d, want %d", c.name, rec.Code, c.status)
		}
		if !strings.Contains(rec.Body.String(), c.message) {
			t.Errorf("%s: the page does not say %q:\n%s", c.name, c.message, rec.Body.String())
		}
		noLeak(t, c.name, rec.Body.String())
	}
	// Cross-origin posts (another site's form aimed at the loopback server) are refused.
	for name, set := range map[string]func(*http.Request){
		"Sec-Fetch-Site": func(r *http.Request) { r.Header.Set("Sec-Fetch-Site", "cross-site") },
		"Origin":         func(r *http.Request) { r.Header.Set("Origin", "http://evil.example") },
	} {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+target, strings.NewReader("action=delete"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		set(req)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden || !strings.Contains(rec.Body.String(), "cross-origin") {
			t.Errorf("cross-origin post (%s): status %d", name, rec.Code)
		}
	}
	// Other methods.
	for _, m := range []string{http.MethodPut, http.MethodDelete} {
		req := httptest.NewRequest(m, target, nil)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: status %d, want 405", m, target, rec.Code)
		}
	}
	after, err := os.ReadFile(fx.labels)
	if err != nil {
		t.Fatal(err)
	}
	if string(after) != string(before) {
		t.Errorf("bad forms changed the labels file:\n%s", after)
	}
}

// TestBrowserConcurrentSaves posts labels from many goroutines at once through a real HTTP server (as
// browser tabs do): saves of different tasks all land, saves of the same task leave one of them (the
// last wins), and the file is valid JSON throughout.
func TestBrowserConcurrentSaves(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	ts := httptest.NewServer(s)
	defer ts.Close()
	ids := []string{idReflect, idRotate, idTranslate, idNone, idEval}
	const perTask = 12
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var wg sync.WaitGroup
	errs := make(chan error, len(ids)*perTask)
	for _, id := range ids {
		for k := range perTask {
			wg.Go(func() {
				form := url.Values{"action": {"save"}, "priors": {"counting"}, "note": {fmt.Sprintf("tab %d", k)}}
				resp, err := client.PostForm(ts.URL+"/task/"+id+"/label", form)
				if err != nil {
					errs <- err
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusSeeOther {
					errs <- fmt.Errorf("%s tab %d: status %d", id, k, resp.StatusCode)
				}
				// Read while others write: the file is always whole.
				if _, err := OpenLabels(fx.labels); err != nil {
					errs <- err
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	labels, err := s.labels.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		l, ok := labels[id]
		if !ok {
			t.Errorf("the label of %s was lost", id)
			continue
		}
		var k int
		if _, err := fmt.Sscanf(l.Note, "tab %d", &k); err != nil || k < 0 || k >= perTask {
			t.Errorf("%s: note %q is none of the saved ones", id, l.Note)
		}
	}
	if len(labels) != len(ids) {
		t.Errorf("%d labels, want %d", len(labels), len(ids))
	}
}

// TestBrowserExport checks the export: the labels next to the definition, agreement and disagreement,
// the confusion table, a label of a task that is not in the data, and the CSV.
func TestBrowserExport(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	for _, l := range []Label{
		{TaskID: idReflect, Split: "training", Priors: []string{"reflection"}, Note: "agree"},
		{TaskID: idRotate, Split: "training", Priors: []string{"rotation", "reflection"}, Note: "two transforms"},
		{TaskID: idTranslate, Split: "training", Priors: []string{"translation", "object-cohesion"}},
		{TaskID: idNone, Split: "training", Priors: []string{"counting"}},
		{TaskID: "abcd9999", Split: "evaluation", Priors: []string{"scaling"}},
	} {
		if err := s.labels.Put(l); err != nil {
			t.Fatal(err)
		}
	}
	code, body := get(t, s, "/export")
	if code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	if got, want := listed(body), []string{idReflect, "abcd9999", idRotate, idTranslate, idNone}; !slices.Equal(got, want) {
		t.Errorf("export rows %v, want %v", got, want)
	}
	for _, want := range []string{`5 tasks labelled`, `2 agree`, `2 disagree`, `1 labels of tasks not in the data directory`,
		`<tr data-task="aaaa0001" data-agree="true">`, `<tr data-task="bbbb0002" data-agree="false">`,
		`two transformations (reflect and rotate): no column of Table 2`, `needs more than lattice transformations: Object cohesion`} {
		if !strings.Contains(body, want) {
			t.Errorf("the export lacks %q", want)
		}
	}
	// Confusion table: definition reflect -> label reflect on the diagonal, rotate -> none, translate -> none, none -> none.
	conf := agreementMatrix(s)
	if conf["reflect"]["reflect"] != 1 || conf["rotate"]["none"] != 1 || conf["translate"]["none"] != 1 || conf["none"]["none"] != 1 {
		t.Errorf("confusion table %v", conf)
	}
	// The CSV.
	req := httptest.NewRequest(http.MethodGet, "/export.csv", nil)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	records, err := csv.NewReader(rec.Body).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(records[0], ExportHeader) || len(records) != 6 {
		t.Fatalf("CSV header %v, %d records", records[0], len(records))
	}
	byID := map[string][]string{}
	for _, r := range records[1:] {
		byID[r[0]] = r
	}
	if r := byID[idReflect]; r[2] != "reflect" || r[4] != "reflection" || r[5] != "reflect" || r[7] != "true" {
		t.Errorf("CSV row %v", r)
	}
	if r := byID[idRotate]; r[2] != "rotate" || r[4] != "rotation;reflection" || r[5] != "none" || r[7] != "false" {
		t.Errorf("CSV row %v", r)
	}
	if r := byID["abcd9999"]; r[2] != "" || r[7] != "" || r[5] != "scale" {
		t.Errorf("CSV row of an unknown task %v", r)
	}
	// labels.json is the file's content.
	code, body = get(t, s, "/labels.json")
	if code != http.StatusOK || !strings.Contains(body, `"format": "`+LabelsFormat+`"`) || !strings.Contains(body, `"abcd9999"`) {
		t.Errorf("labels.json: %d %s", code, body)
	}
}

// agreementMatrix counts the known labelled tasks by definition and label category.
func agreementMatrix(s *Server) map[string]map[string]int {
	labels, _ := s.labels.All()
	m := map[string]map[string]int{}
	for _, r := range s.Agreement(labels) {
		if !r.Known {
			continue
		}
		if m[string(r.Definition)] == nil {
			m[string(r.Definition)] = map[string]int{}
		}
		m[string(r.Definition)][string(r.Person)]++
	}
	return m
}

// TestBrowserLoopbackOnly checks the DNS-rebinding guard: with LoopbackOnly only loopback host names
// are served.
func TestBrowserLoopbackOnly(t *testing.T) {
	fx := newFixture(t)
	s, err := New(Options{DataDir: fx.data, Labels: fx.labels, LoopbackOnly: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]int{"127.0.0.1:8080": 200, "localhost:8080": 200, "LOCALHOST": 200, "[::1]:8080": 200, "127.0.0.2": 200,
		"evil.example:8080": 403, "10.0.0.1:8080": 403, "example.com": 403, "": 403} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Host = host
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != want {
			t.Errorf("Host %q: status %d, want %d", host, rec.Code, want)
		}
	}
}

// TestBrowserErrors checks the error pages: an unknown path is a 404 page, a panic in a handler a 500
// page with a short message and no stack trace, and a New with bad options an error that says why.
func TestBrowserErrors(t *testing.T) {
	fx := newFixture(t)
	s := fx.server(t)
	if code, body := get(t, s, "/nope"); code != 404 || !strings.Contains(body, "There is no page /nope here") {
		t.Errorf("GET /nope: %d", code)
	}
	h := s.recoverPanics(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("secret detail") }))
	code, body := get(t, h, "/")
	if code != 500 || !strings.Contains(body, "Internal error") || strings.Contains(body, "secret detail") {
		t.Errorf("panic: %d %s", code, body)
	}
	noLeak(t, "panic", body)
	for name, opts := range map[string]Options{
		"no data":         {DataDir: fx.dir, Labels: fx.labels},
		"missing results": {DataDir: fx.data, Labels: fx.labels, Results: []string{fx.dir + "/nope.csv"}},
		"bad annotation":  {DataDir: fx.data, Labels: fx.labels, Annotation: "three"},
		"labels dir":      {DataDir: fx.data, Labels: fx.dir + "/no/such/dir/labels.json"},
	} {
		opts.Log = io.Discard
		if _, err := New(opts); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestBrowserRealData checks the page on the real ARC training split, when it is there: the Reflect
// filter shows exactly the reflect tasks of the committed annotation and a task page draws.
func TestBrowserRealData(t *testing.T) {
	dir, err := datasets.DataDir("")
	if err != nil {
		t.Skip("no ARC data:", err)
	}
	if _, err := datasets.ARCSplitDir(dir, "training"); err != nil {
		t.Skip("no ARC training split:", err)
	}
	s, err := New(Options{DataDir: dir, Labels: t.TempDir() + "/labels.json"})
	if err != nil {
		t.Fatal(err)
	}
	anns, err := annotate.Default()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for id, a := range anns {
		if a.Category == datasets.CategoryReflect {
			want = append(want, id)
		}
	}
	slices.Sort(want)
	_, body := get(t, s, "/?category=reflect&split=training")
	if got := listed(body); !slices.Equal(got, want) {
		t.Errorf("Reflect filter: %d tasks, the annotation has %d", len(got), len(want))
	}
	if code, _ := get(t, s, "/task/"+want[0]); code != http.StatusOK {
		t.Errorf("task %s: status %d", want[0], code)
	}
}
