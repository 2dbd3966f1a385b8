package provenance

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/places"
)

// Kind is what a step of a flow did to the bytes.
type Kind string

// Kinds. The first step of a flow is its origin (Network, Secret,
// Agent, Project, Unknown, or From: another path's origin, resolved when
// the flow is folded); the later ones say how the bytes were passed on.
const (
	Network     Kind = "network"       // fetched from a URL (Step.From)
	Secret      Kind = "secret"        // read from a secret file (Step.From)
	Agent       Kind = "agent-written" // written by the agent's file tools; Step.From "stopped" when toolwall would stop its content
	Project     Kind = "project"       // the project's own bytes, or bytes of no known origin written over a file
	Unknown     Kind = "unknown"       // could not be told
	From        Kind = "from"          // whatever the origin of the path Step.From is
	Copy        Kind = "copy"          // copied, moved, linked, teed
	Archive     Kind = "archive"       // extracted or decompressed
	Decoded     Kind = "decoded"       // decoded (base64 -d, xxd -r, openssl enc -d)
	Transformed Kind = "transformed"   // rewritten (sed, tr, awk)
)

// Stopped is Step.From of an Agent origin whose content toolwall would
// stop if it ran.
const Stopped = "stopped"

// Step is one step of a flow.
type Step struct {
	Kind Kind
	// Via is the program or tool that made the step ("curl", "base64 -d
	// x.b64", "Write").
	Via string
	// From is the URL of a Network origin, the file of a Secret origin,
	// the source path of a From step, Stopped for an Agent origin.
	From string
	// Path is the file or directory the step produced ("" for the
	// origin of a derive: the source path is in From).
	Path string
	// Turn and Call say which call made the step: the session's turn and
	// the call's summary; Call is "" for the call being judged (Fill
	// sets both when a record's effects are read back).
	Turn int
	Call string
}

// Flow is how bytes reached a path: its origin first, then each step
// that passed them on.
type Flow []Step

// Root is the flow's origin (the zero Step for an empty flow).
func (f Flow) Root() Step {
	if len(f) == 0 {
		return Step{}
	}
	return f[0]
}

// Seps of the encoding: between steps, between a step's fields. They are
// control characters that file paths and URLs a reader resolves do not
// hold; a field holding one is cut there.
const (
	stepSep  = "\x1e"
	fieldSep = "\x1f"
)

func clean(s string) string {
	if i := strings.IndexAny(s, stepSep+fieldSep); i >= 0 {
		return s[:i]
	}
	return s
}

// Encode writes f as an effect's Detail. The origin comes first, so a
// detail cut to a store's field limit still names it.
func (f Flow) Encode() string {
	var b strings.Builder
	for i, s := range f {
		if i > 0 {
			b.WriteString(stepSep)
		}
		b.WriteString(string(s.Kind))
		b.WriteString(fieldSep + clean(s.Via) + fieldSep + clean(s.From) + fieldSep + clean(s.Path) + fieldSep)
		if s.Call != "" {
			b.WriteString(strconv.Itoa(s.Turn) + fieldSep + clean(s.Call))
		}
	}
	return b.String()
}

// Decode reads an effect's Detail written by Encode. A detail that was
// cut keeps the steps it holds whole; a step cut short keeps its kind.
func Decode(s string) Flow {
	if s == "" {
		return nil
	}
	var f Flow
	for _, part := range strings.Split(s, stepSep) {
		fs := strings.Split(part, fieldSep)
		st := Step{Kind: Kind(fs[0])}
		if len(fs) > 1 {
			st.Via = fs[1]
		}
		if len(fs) > 2 {
			st.From = fs[2]
		}
		if len(fs) > 3 {
			st.Path = fs[3]
		}
		if len(fs) > 5 && fs[5] != "" {
			st.Turn, _ = strconv.Atoi(fs[4])
			st.Call = fs[5]
		}
		f = append(f, st)
	}
	return f
}

// Effect tags that carry flows (toolwall.Effect.Detail is the encoded
// flow) and that name sinks the flows are checked at.
const (
	// TagOrigin: the file Path now holds the bytes of Detail's flow
	// (written over: its earlier origins no longer count).
	TagOrigin toolwall.Tag = "origin"
	// TagOriginTree: everything under the directory Path holds them
	// (git clone, an archive extracted there).
	TagOriginTree toolwall.Tag = "origin-tree"
	// TagDerive: the file Path is made from another path's bytes:
	// Detail's flow starts with a From step naming it; folding replaces
	// it with that path's flow.
	TagDerive toolwall.Tag = "derive"
	// TagDeriveTree: the same for everything under the directory Path.
	TagDeriveTree toolwall.Tag = "derive-tree"
	// TagRunName: a program run by its name (Path), found on PATH.
	TagRunName toolwall.Tag = "run-name"
	// TagSend: the content of the file Path is sent over the network.
	TagSend toolwall.Tag = "send"
)

// Carries reports whether tag is one of the tags Fold reads.
func Carries(tag toolwall.Tag) bool {
	switch tag {
	case TagOrigin, TagOriginTree, TagDerive, TagDeriveTree:
		return true
	}
	return false
}

// Map holds the flows of paths: files, and directory trees whose every
// entry has the tree's flow. Its zero value is empty and ready.
type Map struct {
	files map[string]Flow
	trees map[string]Flow
}

// MaxPaths bounds a Map: past it, the oldest paths set are not dropped
// but new ones are ignored, and Full reports it. A session's memory is
// bounded before that (the store keeps its last records, each with at
// most a store's number of effects), so only a call of its own can fill
// it.
const MaxPaths = 4096

// Len is how many paths hold a flow.
func (m *Map) Len() int { return len(m.files) + len(m.trees) }

func (m *Map) set(p string, f Flow, tree bool) {
	if m.files == nil {
		m.files, m.trees = map[string]Flow{}, map[string]Flow{}
	}
	if tree {
		// a tree written anew replaces what was known beneath it
		for q := range m.files {
			if under(q, p) {
				delete(m.files, q)
			}
		}
		for q := range m.trees {
			if under(q, p) && q != p {
				delete(m.trees, q)
			}
		}
	}
	target := m.files
	if tree {
		target = m.trees
	}
	if len(f) == 0 || f.Root().Kind == Project {
		delete(target, p)
		if !tree {
			delete(m.trees, p)
		}
		return
	}
	if m.Len() >= MaxPaths {
		return
	}
	target[p] = f
}

func under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// Lookup returns the flow of the file or directory p: its own, else the
// nearest tree above it that holds one, else a secret's origin when p is
// a secret file by its name (places.Classify).
func (m *Map) Lookup(p string) (Flow, bool) {
	if p == "" {
		return nil, false
	}
	if f, ok := m.files[p]; ok {
		return f, true
	}
	for d := p; ; d = path.Dir(d) {
		if f, ok := m.trees[d]; ok {
			return f, true
		}
		if d == "/" || d == "." || d == "" {
			break
		}
	}
	if places.Classify(p) != places.None {
		return Flow{{Kind: Secret, From: p, Path: p}}, true
	}
	return nil, false
}

// Fill gives the steps a record's effects made (those with no Call) the
// record's turn and summary.
func Fill(f Flow, turn int, call string) Flow {
	for i := range f {
		if f[i].Call == "" {
			f[i].Turn, f[i].Call = turn, call
		}
	}
	return f
}

// Apply folds effects, in order, into m, and returns them with every
// derive resolved: a derive whose source has a flow becomes an origin
// with that flow and its own steps after it; one whose source has none
// becomes a Project origin (the bytes written over the path are of no
// known origin). Effects other than the four flow tags pass unchanged.
// turn and call fill the steps of a record read back (call "" for the
// call being judged: its steps stay unfilled).
func (m *Map) Apply(effects []toolwall.Effect, turn int, call string) []toolwall.Effect {
	out := effects[:0:0]
	var set map[string]bool // paths this fold gave a flow: another source of theirs of no known origin does not clear it
	for _, e := range effects {
		if !Carries(e.Tag) {
			out = append(out, e)
			continue
		}
		f := Decode(e.Detail)
		if call != "" {
			f = Fill(f, turn, call)
		}
		tree := e.Tag == TagOriginTree || e.Tag == TagDeriveTree
		if e.Tag == TagDerive || e.Tag == TagDeriveTree {
			src, ok := m.Lookup(f.Root().From)
			switch {
			case ok:
				f = append(append(Flow(nil), src...), f[1:]...)
			case set[e.Path]:
				continue // cat a b > c: c keeps a's origin
			default:
				f = Flow{{Kind: Project, Path: e.Path}}
			}
			tag := TagOrigin
			if tree {
				tag = TagOriginTree
			}
			e = toolwall.Effect{Tag: tag, Path: e.Path, Detail: f.Encode()}
		}
		m.set(e.Path, f, tree)
		if f.Root().Kind != Project {
			if set == nil {
				set = map[string]bool{}
			}
			set[e.Path] = true
		}
		out = append(out, e)
	}
	return out
}

// Tainted reports whether a flow's bytes are ones a sink must not take
// unreviewed, and what they are, for a reason: code from the network, a
// secret, or content the agent wrote that toolwall would stop.
func (f Flow) Tainted() (what string, ok bool) {
	switch r := f.Root(); {
	case r.Kind == Network:
		return "code from the network that nobody has reviewed", true
	case r.Kind == Secret:
		return "a secret", true
	case r.Kind == Agent && r.From == Stopped:
		return "commands toolwall would stop if they were run directly", true
	}
	return "", false
}

// maxCall is the longest call summary a story quotes.
const maxCall = 160

// Story tells how the bytes reached subject, in one clause: "`x.sh` was
// downloaded from https://h/x.b64 by `curl` in turn 2, then decoded by
// `base64 -d x.b64` in turn 3".
func (f Flow) Story(subject string) string {
	var parts []string
	for i, s := range f {
		var p string
		switch s.Kind {
		case Network:
			// by the call that fetched, when it is an earlier one: the
			// reason names it as it ran
			p = "downloaded from " + s.From
			switch by := s.Via; {
			case s.Call != "":
				if len(s.Call) > maxCall {
					by = s.Call[:maxCall] + "…"
				} else {
					by = s.Call
				}
				p += " by `" + by + "`"
			case by != "":
				p += " by `" + by + "`"
			}
		case Secret:
			p = "read from the secret " + s.From
		case Agent:
			p = "written by the agent"
			if s.Via != "" {
				p += " (" + s.Via + ")"
			}
			if s.From == Stopped {
				p += " with commands toolwall stops"
			}
		case Archive:
			p = "extracted by `" + s.Via + "`"
		case Decoded:
			p = "decoded by `" + s.Via + "`"
		case Transformed:
			p = "rewritten by `" + s.Via + "`"
		case Copy:
			p = "copied by `" + s.Via + "`"
		default:
			p = string(s.Kind)
			if s.Via != "" {
				p += " by `" + s.Via + "`"
			}
		}
		if s.Path != "" && i > 0 && s.Path != subject {
			p += " into " + s.Path
		}
		if s.Call != "" {
			p += fmt.Sprintf(" in turn %d", s.Turn)
		} else {
			p += " in this call"
		}
		parts = append(parts, p)
	}
	return "`" + subject + "` was " + strings.Join(parts, ", then ")
}
