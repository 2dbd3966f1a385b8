package auditweb

import (
	"crypto/rand"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
)

//go:embed templates/*.html
var files embed.FS

// pages are parsed on first use, not at init: the toolwall binary links
// this package, and every hook process would pay for the parse.
var pages = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("").Funcs(template.FuncMap{
		"time":    func(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") },
		"summary": func(r audit.Record) string { return toolwall.Call{Tool: r.Tool, Input: r.Input}.Summary() },
		"rules":   func(r audit.Record) string { return strings.Join(r.Verdict.Rules(), ", ") },
		"pct": func(n, max int) int {
			if max == 0 {
				return 0
			}
			return n * 100 / max
		},
	}).ParseFS(files, "templates/*.html"))
})

// Server serves the pages of one store.
type Server struct {
	// Probes shows the records of `toolwall doctor`'s probes too (see
	// audit.IsProbe); they are left out of the overview and the
	// sessions otherwise.
	Probes bool
	store  audit.Store
	token  string
	now    func() time.Time
}

// New returns a server over store with a fresh random token.
func New(store audit.Store) *Server {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return &Server{store: store, token: hex.EncodeToString(b[:]), now: time.Now}
}

// Token returns the token every request must carry.
func (s *Server) Token() string { return s.token }

// Listen listens on addr, which must be a loopback address
// ("127.0.0.1:0" picks a free port).
func Listen(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("auditweb: %s is not a loopback address; the audit page is only served to this machine", host)
	}
	return net.Listen("tcp", addr)
}

// URL returns the page's address on ln, token included.
func (s *Server) URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + "/?token=" + s.token
}

// ServeHTTP checks the token and serves / (overview), /session?id=,
// /decision?id=.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if subtle.ConstantTimeCompare([]byte(r.URL.Query().Get("token")), []byte(s.token)) != 1 {
		http.Error(w, "forbidden: open the URL toolwall audit serve printed", http.StatusForbidden)
		return
	}
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	var err error
	switch r.URL.Path {
	case "/":
		err = s.overview(w, r)
	case "/session":
		err = s.session(w, r)
	case "/decision":
		err = s.decision(w, r)
	default:
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}

// link builds a page link carrying the token.
func (s *Server) link(path string, kv ...string) template.URL {
	q := url.Values{"token": {s.token}}
	for i := 0; i+1 < len(kv); i += 2 {
		q.Set(kv[i], kv[i+1])
	}
	return template.URL(path + "?" + q.Encode())
}

// Day is one day's decisions.
type Day struct {
	Day      string
	ByAction [4]int
	Total    int
}

// Overview is the front page's data.
type Overview struct {
	Since    time.Time
	Total    int
	ByAction map[string]int
	Days     []Day
	MaxDay   int
	Rules    []RuleCount
	Sessions []SessionRow
	Recent   []Row
}

// RuleCount is a rule and the decisions it took part in.
type RuleCount struct {
	Rule  string
	Count int
}

// SessionRow is one session on the front page.
type SessionRow struct {
	ID       string
	Link     template.URL
	Calls    int
	Stopped  int
	Last     time.Time
	Chains   int
	Callers  string
	Outcomes int
}

// Row is one decision in a list.
type Row struct {
	audit.Record
	Link template.URL
}

func (s *Server) overview(w http.ResponseWriter, r *http.Request) error {
	days := 7
	since := s.now().Add(-time.Duration(days) * 24 * time.Hour)
	rs, err := s.store.Query(r.Context(), audit.Filter{Since: since, NoProbes: !s.Probes})
	if err != nil {
		return err
	}
	o := Overview{Since: since, Total: len(rs), ByAction: map[string]int{}}
	byDay := map[string]*Day{}
	rules := map[string]int{}
	sessions := map[string]*SessionRow{}
	for _, rec := range rs {
		a := rec.Verdict.Action
		o.ByAction[a.String()]++
		d := rec.At.Local().Format("2006-01-02")
		if byDay[d] == nil {
			byDay[d] = &Day{Day: d}
		}
		if int(a) < 4 {
			byDay[d].ByAction[a]++
		}
		byDay[d].Total++
		for _, rule := range rec.Verdict.Rules() {
			rules[rule]++
		}
		sr := sessions[rec.Session]
		if sr == nil {
			sr = &SessionRow{ID: rec.Session, Link: s.link("/session", "id", rec.Session)}
			sessions[rec.Session] = sr
		}
		sr.Calls++
		if a.Stops() {
			sr.Stopped++
		}
		if rec.At.After(sr.Last) {
			sr.Last = rec.At
		}
		if slices.ContainsFunc(rec.Verdict.Rules(), func(x string) bool { return strings.HasPrefix(x, "chain.") }) {
			sr.Chains++
		}
		if rec.Outcome != nil {
			sr.Outcomes++
		}
		if rec.Caller != "" && !strings.Contains(sr.Callers, rec.Caller) {
			sr.Callers = strings.TrimPrefix(sr.Callers+", "+rec.Caller, ", ")
		}
	}
	for i := days - 1; i >= 0; i-- {
		d := s.now().Add(-time.Duration(i) * 24 * time.Hour).Local().Format("2006-01-02")
		day := Day{Day: d}
		if byDay[d] != nil {
			day = *byDay[d]
		}
		o.Days = append(o.Days, day)
		o.MaxDay = max(o.MaxDay, day.Total)
	}
	for rule, n := range rules {
		o.Rules = append(o.Rules, RuleCount{rule, n})
	}
	sort.Slice(o.Rules, func(i, j int) bool {
		return o.Rules[i].Count > o.Rules[j].Count || o.Rules[i].Count == o.Rules[j].Count && o.Rules[i].Rule < o.Rules[j].Rule
	})
	o.Rules = o.Rules[:min(len(o.Rules), 10)]
	for _, sr := range sessions {
		o.Sessions = append(o.Sessions, *sr)
	}
	sort.Slice(o.Sessions, func(i, j int) bool { return o.Sessions[i].Last.After(o.Sessions[j].Last) })
	for _, rec := range rs[:min(len(rs), 20)] {
		o.Recent = append(o.Recent, Row{rec, s.link("/decision", "id", rec.ID)})
	}
	return pages().ExecuteTemplate(w, "overview.html", o)
}

// SessionPage is a session's data.
type SessionPage struct {
	ID     string
	Home   template.URL
	Calls  []Row
	Chains []ChainRow
}

// ChainRow is a chain rule that fired in the session.
type ChainRow struct {
	Rule, Reason string
	At           time.Time
	Link         template.URL
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) error {
	id := r.URL.Query().Get("id")
	rs, err := s.store.Query(r.Context(), audit.Filter{Session: id, NoProbes: !s.Probes})
	if err != nil {
		return err
	}
	slices.Reverse(rs)
	p := SessionPage{ID: id, Home: s.link("/")}
	for _, rec := range rs {
		link := s.link("/decision", "id", rec.ID)
		p.Calls = append(p.Calls, Row{rec, link})
		for _, f := range rec.Verdict.Findings {
			if strings.HasPrefix(f.Rule, "chain.") {
				p.Chains = append(p.Chains, ChainRow{f.Rule, f.Reason, rec.At, link})
			}
		}
	}
	return pages().ExecuteTemplate(w, "session.html", p)
}

// DecisionPage is one decision's data.
type DecisionPage struct {
	audit.Record
	Home, Session template.URL
}

func (s *Server) decision(w http.ResponseWriter, r *http.Request) error {
	rec, err := s.store.Get(r.Context(), r.URL.Query().Get("id"))
	if err != nil {
		return err
	}
	return pages().ExecuteTemplate(w, "decision.html", DecisionPage{rec, s.link("/"), s.link("/session", "id", rec.Session)})
}
