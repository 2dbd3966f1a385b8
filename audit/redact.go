package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/toolwall/toolwall"
)

// MaxField bounds a string kept from a tool input (4096 bytes): a Write
// of a large file keeps its head; Record.Redacted notes the cut.
const MaxField = 4096

// secret is one kind of secret Redact hides. Its pattern has two groups:
// the text kept before the secret (a key name, a URL's user) and the
// secret. The pattern is compiled on first use, and only tried on strings
// holding one of its triggers (lower case), so a harmless call costs a
// few substring searches and no regexp compilation.
type secret struct {
	name     string
	triggers []string
	re       func() *regexp.Regexp
}

func lazy(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// secrets are the kinds Redact knows, most specific first. Token formats
// are the issuers' documented prefixes (AWS key ids, GitHub, GitLab,
// Slack, Anthropic, OpenAI, Google, Stripe tokens), plus PEM private keys,
// JWTs, HTTP Authorization headers, passwords in URLs and on command
// lines, and values assigned to names that say secret.
var secrets = []secret{
	{"private key", []string{"private key-----"}, lazy(`()(-----BEGIN[A-Z0-9 ]*PRIVATE KEY-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY-----|$))`)},
	{"AWS access key id", []string{"akia", "asia"}, lazy(`()\b((?:AKIA|ASIA)[0-9A-Z]{16})\b`)},
	{"GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, lazy(`()\b((?:gh[pousr]_[A-Za-z0-9]{30,})|(?:github_pat_[A-Za-z0-9_]{30,}))`)},
	{"GitLab token", []string{"glpat-"}, lazy(`()(glpat-[A-Za-z0-9_-]{20,})`)},
	{"Slack token", []string{"xox"}, lazy(`()\b(xox[abposr]-[A-Za-z0-9-]{10,})`)},
	{"Anthropic API key", []string{"sk-ant-"}, lazy(`()(sk-ant-[A-Za-z0-9_-]{20,})`)},
	{"OpenAI API key", []string{"sk-"}, lazy(`()\b(sk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,})`)},
	{"Google API key", []string{"aiza"}, lazy(`()\b(AIza[0-9A-Za-z_-]{35})`)},
	{"Stripe key", []string{"_live_", "_test_"}, lazy(`()\b((?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,})`)},
	{"JWT", []string{"eyj"}, lazy(`()\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`)},
	{"Authorization header", []string{"authorization"}, lazy(`(?i)(authorization\s*[:=]\s*(?:bearer|basic|token|bot)?\s*)([^\s'"\\]{6,})`)},
	{"password in URL", []string{"://"}, lazy(`(?i)(\b[a-z][a-z0-9+.-]*://[^/\s:@'"]+:)([^@\s/'"]+)@`)},
	{"password option", []string{"--pass"}, lazy(`((?:^|\s)--pass(?:word|wd)?[= ])([^\s'"-][^\s'"]{3,})`)},
	{"secret value", []string{"pass", "secret", "token", "api_key", "apikey", "api-key", "access_key", "credential", "private_key"},
		lazy(`(?i)(\b[A-Za-z0-9_.-]*(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|credential|private[_-]?key)[A-Za-z0-9_]*["']?\s*(?::|=|:=)\s*)("[^"\s]{4,}"|'[^'\s]{4,}'|[^\s'"&;,)}]{4,})`)},
}

// redactString hides the secrets in s and returns the kinds it hid.
func redactString(s string) (string, []string) {
	if s == "" {
		return s, nil
	}
	var lower string
	var kinds []string
	for _, k := range secrets {
		if lower == "" {
			lower = strings.ToLower(s)
		}
		if !slices.ContainsFunc(k.triggers, func(t string) bool { return strings.Contains(lower, t) }) {
			continue
		}
		out, hid := replace(k.re(), s, "[REDACTED:"+k.name+"]")
		if hid {
			s, lower = out, ""
			kinds = append(kinds, k.name)
		}
	}
	return s, kinds
}

// replace puts placeholder in place of group 2 of every match of re in
// s, skipping secrets already replaced by a placeholder, and reports
// whether it replaced any.
func replace(re *regexp.Regexp, s, placeholder string) (string, bool) {
	var b strings.Builder
	last, hid := 0, false
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		if m[4] < 0 || strings.HasPrefix(s[m[4]:], "[REDACTED:") {
			continue
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(placeholder)
		last, hid = m[5], true
	}
	if !hid {
		return s, false
	}
	b.WriteString(s[last:])
	return b.String(), true
}

// RedactString returns s with secrets replaced by "[REDACTED:kind]" and
// the kinds it hid, for drivers that log text.
func RedactString(s string) (string, []string) { return redactString(s) }

// redactor collects notes while redacting.
type redactor struct{ notes []string }

func (r *redactor) note(format string, a ...any) {
	if n := fmt.Sprintf(format, a...); !slices.Contains(r.notes, n) {
		r.notes = append(r.notes, n)
	}
}

func (r *redactor) str(s, where string) string {
	out, kinds := redactString(s)
	for _, k := range kinds {
		r.note("%s in %s", k, where)
	}
	return out
}

// value redacts and cuts the strings of a decoded JSON value.
func (r *redactor) value(v any, where string) any {
	switch x := v.(type) {
	case string:
		x = r.str(x, where)
		if len(x) > MaxField {
			cut := MaxField
			for cut > 0 && !utf8.RuneStart(x[cut]) {
				cut--
			}
			r.note("%s cut to %d of %d bytes", where, cut, len(x))
			x = x[:cut] + "…"
		}
		return x
	case map[string]any:
		for k, e := range x {
			x[k] = r.value(e, where+"."+k)
		}
	case []any:
		for i, e := range x {
			x[i] = r.value(e, fmt.Sprintf("%s[%d]", where, i))
		}
	}
	return v
}

// redactInput returns the input with its secrets hidden and long strings
// cut. Input that is not JSON is kept as a JSON string (redacted, cut).
func (r *redactor) input(in json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(in)) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		v = string(in)
		r.note("input is not JSON; kept as text")
	}
	out, err := json.Marshal(r.value(v, "input"))
	if err != nil {
		return nil
	}
	return out
}

// verdict redacts the texts of a verdict that quote the call: reasons,
// commands and notes.
func (r *redactor) verdict(v toolwall.Verdict) toolwall.Verdict {
	v.Reason = r.str(v.Reason, "reason")
	v.Findings = slices.Clone(v.Findings)
	for i := range v.Findings {
		v.Findings[i].Reason = r.str(v.Findings[i].Reason, "reason")
	}
	v.Commands = slices.Clone(v.Commands)
	for i := range v.Commands {
		v.Commands[i] = r.str(v.Commands[i], "commands")
	}
	v.Notes = slices.Clone(v.Notes)
	for i := range v.Notes {
		v.Notes[i] = r.str(v.Notes[i], "notes")
	}
	v.Effects = slices.Clone(v.Effects)
	for i := range v.Effects {
		v.Effects[i].Path = r.str(v.Effects[i].Path, "effects")
	}
	return v
}

// New returns the record of the decision v on call, made at at and taking
// elapsed, by driver, under decision id id: the call's input and every
// verdict text that quotes it have their secrets replaced by
// "[REDACTED:kind]" and strings over MaxField cut, and Redacted says what
// was hidden ("AWS access key id in input.command"). Every driver builds
// its records with New.
func New(id, driver string, call toolwall.Call, v toolwall.Verdict, at time.Time, elapsed time.Duration) Record {
	var r redactor
	rec := Record{
		ID: id, At: at.UTC(), Driver: driver,
		Session: call.Session, Turn: call.Turn, Caller: call.Caller, CallID: call.ID, Cwd: call.Cwd,
		Tool:    call.Tool,
		Input:   r.input(call.Input),
		Verdict: r.verdict(v),
		Elapsed: elapsed,
	}
	rec.Redacted = r.notes
	return rec
}

// RedactOutcome hides secrets in an outcome's error text.
func RedactOutcome(o Outcome) Outcome {
	o.Error, _ = redactString(o.Error)
	if len(o.Error) > MaxField {
		o.Error = o.Error[:MaxField] + "…"
	}
	return o
}
