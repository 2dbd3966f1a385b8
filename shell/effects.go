package shell

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/programs"
)

// EffectKind is what a command does to a file, a directory or the
// network, as its program's catalog entry and its redirections say.
type EffectKind uint8

// Kinds of effects.
const (
	Reads      EffectKind = iota + 1 // reads a file
	Writes                           // creates or overwrites a file (a tree when Recursive)
	Appends                          // appends to a file
	Modifies                         // changes a file in place (sed -i, truncate, patch)
	Deletes                          // deletes a file (a tree when Recursive)
	Moves                            // moves a file away from its place (mv's sources)
	Chmods                           // changes permission bits (Mode)
	Chowns                           // changes owner or group
	Creates                          // creates a directory or an empty file
	Links                            // creates a link
	Runs                             // runs a file as a program or script
	ChangesDir                       // works in a directory
	Connects                         // talks to a network host
	Fetches                          // fetches a URL
	Sends                            // sends a file's content or literal data (Data) over the network
	Mounts                           // maps a host path (Path) into a container (Guest)
)

var kindNames = [...]string{"", "reads", "writes", "appends", "modifies", "deletes", "moves", "chmods",
	"chowns", "creates", "links", "runs", "cd", "connects", "fetches", "sends", "mounts"}

// String returns the kind's name.
func (k EffectKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "effect"
}

// Effect is one thing a command does.
type Effect struct {
	Kind EffectKind
	// Word is the word the effect comes from: the operand, the option's
	// value or the redirection target.
	Word Word
	// Path is the file or directory, absolute and clean, resolved against
	// the command's directory; "" when the word is dynamic, the directory
	// unknown or the effect is not on a path (Connects, Fetches, literal
	// Sends).
	Path string
	// Recursive: the effect reaches everything under Path (rm -r, chmod
	// -R, a recursive copy's destination, an archive extracted into it).
	Recursive bool
	// Mode is the permission mode of Chmods, as written.
	Mode string
	// Data: a Sends of literal data rather than a file's content.
	Data bool
	// Guest is the container path of a Mounts.
	Guest string
	// Remote: it happens on another host or inside a container, not on
	// this machine's files.
	Remote bool
	// Role is the catalog role that made it (programs.Unknown for a
	// redirection).
	Role programs.Role
	// From says what made it: an option spelling ("-o"), "operand", or a
	// redirection operator (">").
	From string
}

// Mount maps a host path into a container.
type Mount struct {
	Host, Guest string
}

// effects returns what c does, from its invocation and redirections.
func effects(c *Command) []Effect {
	var out []Effect
	e := effectsOf{c: c, out: &out}
	for _, r := range c.Redirects {
		e.redirect(r)
	}
	if v := c.Inv; v != nil && v.Program() != nil {
		e.invocation(v)
	}
	return out
}

type effectsOf struct {
	c   *Command
	out *[]Effect
}

// add appends one effect of word w, resolving its path when the kind is
// about a path.
func (e effectsOf) add(k EffectKind, w Word, role programs.Role, from string, f func(*Effect)) {
	x := Effect{Kind: k, Word: w, Role: role, From: from, Remote: e.c.Remote}
	switch k {
	case Connects, Fetches:
	default:
		x.Path = e.path(w)
	}
	if f != nil {
		f(&x)
	}
	if e.c.Remote && x.Path != "" {
		if host, ok := e.c.hostPath(x.Path); ok {
			x.Path, x.Remote = host, false
		}
	}
	*e.out = append(*e.out, x)
}

// path resolves a static word against the command's directory.
func (e effectsOf) path(w Word) string {
	if w.Dynamic || w.Value == "" {
		return ""
	}
	if !path.IsAbs(w.Value) && e.c.Cwd == "" {
		return ""
	}
	return paths.Abs(w.Value, e.c.Cwd)
}

// hostPath maps a container path to the host path mounted there.
func (c *Command) hostPath(p string) (string, bool) {
	for _, m := range c.Mounts {
		if paths.Under(p, m.Guest) {
			return path.Join(m.Host, strings.TrimPrefix(p, m.Guest)), true
		}
	}
	return "", false
}

// skipTarget reports whether a redirection target is a stream, not a file.
func skipTarget(v string) bool {
	switch v {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty", "-":
		return true
	}
	return strings.HasPrefix(v, "/dev/fd/") || strings.HasPrefix(v, "/proc/self/fd/")
}

func (e effectsOf) redirect(r Redirect) {
	if !r.Target.Dynamic && skipTarget(r.Target.Value) {
		return
	}
	switch r.Op {
	case ">", ">|", "&>":
		e.add(Writes, r.Target, programs.Unknown, r.Op, nil)
	case ">>", "&>>":
		e.add(Appends, r.Target, programs.Unknown, r.Op, nil)
	case "<":
		e.add(Reads, r.Target, programs.Unknown, r.Op, nil)
	case "<>":
		e.add(Reads, r.Target, programs.Unknown, r.Op, nil)
		e.add(Writes, r.Target, programs.Unknown, r.Op, nil)
	case ">&":
		if t := r.Target.Value; r.Target.Dynamic || t != "-" && strings.Trim(t, "0123456789") != "" {
			e.add(Writes, r.Target, programs.Unknown, r.Op, nil)
		}
	}
}

// invocation adds the effects of the operands and option values.
func (e effectsOf) invocation(v *Invocation) {
	p := v.Program()
	rec := p.Root().Recursive || v.Has("recursive")
	copies := false // the invocation copies its read operands to a destination
	for _, op := range v.Operands {
		copies = copies || op.Role == programs.Dest || op.Role == programs.Link
	}
	for _, o := range v.Opts {
		copies = copies || o.Role == programs.Dest && o.HasValue
	}
	var (
		sources []Word // copy, move, transfer sources
		dests   []Word
		mode    string
		remote  bool // a transfer endpoint is on another host
	)
	for _, w := range v.OperandsOf(programs.Mode) {
		mode = w.Value
	}
	for _, o := range v.Opts {
		if o.Role == programs.Mode && o.HasValue {
			mode = v.Value(o).Value
		}
	}
	one := func(w Word, role programs.Role, from string) {
		switch role {
		case programs.Read:
			e.add(Reads, w, role, from, nil)
		case programs.Write:
			e.add(Writes, w, role, from, nil)
		case programs.Append:
			e.add(Appends, w, role, from, nil)
		case programs.Modify:
			e.add(Modifies, w, role, from, nil)
		case programs.Delete:
			e.add(Deletes, w, role, from, func(x *Effect) { x.Recursive = rec })
		case programs.Move:
			e.add(Moves, w, role, from, nil)
			sources = append(sources, w)
		case programs.Dest:
			dests = append(dests, w)
		case programs.Chmod:
			e.add(Chmods, w, role, from, func(x *Effect) { x.Recursive, x.Mode = rec, mode })
		case programs.Chown:
			e.add(Chowns, w, role, from, func(x *Effect) { x.Recursive = rec })
		case programs.Create:
			e.add(Creates, w, role, from, nil)
		case programs.Link:
			dests = append(dests, w)
		case programs.Cd:
			e.add(ChangesDir, w, role, from, nil)
		case programs.Exec, programs.Source:
			if !w.Dynamic && isStdinFile(w.Value) {
				return
			}
			e.add(Runs, w, role, from, nil)
		case programs.Host:
			e.add(Connects, w, role, from, nil)
		case programs.URL:
			e.add(Fetches, w, role, from, nil)
		case programs.Upload:
			e.upload(w, role, from)
		case programs.Data:
			e.data(v, w, role, from)
		case programs.Mount:
			e.mount(w, from)
		case programs.Archive:
			k := Reads
			if v.Has("create") || v.Has("append") || v.Has("update") {
				k = Writes
			}
			if !w.Dynamic && w.Value == "-" {
				return
			}
			e.add(k, w, role, from, nil)
		case programs.Xfer, programs.XferDest:
			if host, ok := remoteSpec(w); ok {
				remote = true
				e.add(Connects, Word{Raw: w.Raw, Value: host, Prefix: host}, role, from, nil)
				return
			}
			if role == programs.Xfer {
				e.add(Reads, w, role, from, nil)
				sources = append(sources, w)
			} else {
				dests = append(dests, w)
			}
		}
	}
	for _, o := range v.Opts {
		if o.HasValue && o.Role != programs.Dest {
			one(v.Value(o), o.Role, o.Spelling)
		}
	}
	for _, op := range v.Operands {
		w := v.Args[op.Word]
		if op.Role == programs.Read && copies {
			sources = append(sources, w)
		}
		one(w, op.Role, "operand")
	}
	// cp -t DIR: the destination is an option's value.
	for _, o := range v.Opts {
		if o.Role == programs.Dest && o.HasValue {
			d := v.Value(o)
			d.Value = strings.TrimSuffix(d.Value, "/") + "/"
			dests = append(dests, d)
		}
	}
	for _, d := range dests {
		e.dest(d, sources, rec, v)
		if v.Has("delete") {
			// rsync --delete: the destination loses what the sources lack
			e.add(Deletes, d, programs.XferDest, "--delete", func(x *Effect) { x.Recursive = true })
		}
	}
	if remote {
		for _, s := range sources {
			e.add(Sends, s, programs.Xfer, "operand", nil)
		}
	}
	if p.HasTree && v.Holds(p.TreeWrites) {
		dir := Word{Value: e.c.Cwd, Prefix: e.c.Cwd, Raw: e.c.Cwd}
		for _, o := range v.Opts {
			if o.Role == programs.Cd && o.HasValue {
				dir = v.Value(o)
			}
		}
		if e.c.Cwd == "" && !path.IsAbs(dir.Value) {
			dir = Word{Raw: dir.Raw, Dynamic: true}
		}
		e.add(Writes, dir, programs.Cd, "tree", func(x *Effect) { x.Recursive = true })
	}
}

// dest adds what a copy, move or link writes at destination d: an entry
// named after each source when d is a directory, else d itself. When the
// reading cannot tell (one source, d not known to be a directory), both.
func (e effectsOf) dest(d Word, sources []Word, rec bool, v *Invocation) {
	kind := Writes
	if v.firstRole(programs.Link) >= 0 {
		kind = Links
	}
	if v.Has("directory") && v.Program().Root().Name == "install" {
		e.add(Creates, d, programs.Dest, "operand", nil)
		return
	}
	dir := len(sources) > 1 || strings.HasSuffix(d.Value, "/") || d.Value == "." || d.Value == ".." ||
		v.Has("target-directory")
	if !d.Dynamic && !dir {
		e.add(kind, d, programs.Dest, "operand", func(x *Effect) { x.Recursive = rec })
	}
	for _, s := range sources {
		if s.Dynamic || d.Dynamic {
			if dir || d.Dynamic {
				e.add(kind, Word{Raw: d.Raw, Prefix: d.Prefix, Dynamic: true}, programs.Dest, "operand", func(x *Effect) { x.Recursive = rec })
			}
			continue
		}
		base := path.Base(strings.TrimSuffix(s.Value, "/"))
		if base == "/" || base == "." || strings.HasSuffix(s.Value, "/") && v.firstRole(programs.Xfer) >= 0 {
			// the source's contents go into d itself (cp -r src/. d,
			// rsync src/ d)
			if !d.Dynamic {
				e.add(kind, d, programs.Dest, "operand", func(x *Effect) { x.Recursive = true })
			}
			continue
		}
		into := d
		into.Value = strings.TrimSuffix(d.Value, "/") + "/" + base
		into.Prefix = into.Value
		e.add(kind, into, programs.Dest, "operand", func(x *Effect) { x.Recursive = rec })
	}
}

// upload adds a file sent over the network ("-" is stdin).
func (e effectsOf) upload(w Word, role programs.Role, from string) {
	if !w.Dynamic && w.Value == "-" {
		return
	}
	e.add(Reads, w, role, from, nil)
	e.add(Sends, w, role, from, nil)
}

// data adds literal data sent over the network; a value naming a file
// with "@" (curl -d @file, -F name=@file, httpie name@file) sends that
// file.
func (e effectsOf) data(v *Invocation, w Word, role programs.Role, from string) {
	val := w.Value
	file := ""
	switch {
	case strings.HasPrefix(val, "@"):
		file = val[1:]
	case strings.Contains(val, "=@"):
		file = val[strings.Index(val, "=@")+2:]
	case strings.Contains(val, "=<"):
		file = val[strings.Index(val, "=<")+2:]
	default:
		if root := v.Program().Root().Name; root == "http" || root == "xh" {
			if i := strings.IndexByte(val, '@'); i > 0 && !strings.ContainsAny(val[:i], "=:") {
				file = val[i+1:]
			}
		}
	}
	if file != "" {
		if i := strings.IndexByte(file, ';'); i >= 0 && role == programs.Data {
			file = file[:i]
		}
		f := Word{Raw: w.Raw, Value: file, Prefix: file, Dynamic: w.Dynamic}
		if w.Dynamic {
			f.Prefix = strings.TrimPrefix(strings.TrimPrefix(w.Prefix, val[:len(val)-len(file)]), "@")
		}
		e.upload(f, programs.Upload, from)
		return
	}
	e.add(Sends, w, role, from, func(x *Effect) { x.Data, x.Path = true, "" })
}

// mount adds a container mount: -v SRC:DST[:opts] or --mount
// type=bind,source=SRC,target=DST (a named volume is not a host path).
func (e effectsOf) mount(w Word, from string) {
	src, dst := "", ""
	spec := w.Value
	if w.Dynamic {
		// only the static part before the first expansion is known
		spec = w.Prefix
		if !strings.Contains(spec, ":") && !strings.Contains(spec, ",") {
			return
		}
	}
	if strings.Contains(spec, "source=") || strings.Contains(w.Value, "src=") || strings.Contains(w.Value, "target=") {
		for _, kv := range strings.Split(spec, ",") {
			k, val, _ := strings.Cut(kv, "=")
			switch k {
			case "source", "src":
				src = val
			case "target", "dst", "destination":
				dst = val
			}
		}
	} else {
		parts := strings.Split(spec, ":")
		if len(parts) >= 2 {
			src, dst = parts[0], parts[1]
		}
	}
	if src == "" || dst == "" || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".") && !strings.HasPrefix(src, "~") {
		return
	}
	hw := Word{Raw: w.Raw, Value: src, Prefix: src}
	e.add(Mounts, hw, programs.Mount, from, func(x *Effect) { x.Guest = path.Clean(dst); x.Recursive = true })
}

// remoteSpec reports whether a transfer path is on another host
// ("host:path", "user@host:path", "rsync://host/…") and returns the host.
func remoteSpec(w Word) (string, bool) {
	v := w.Prefix
	if rest, ok := strings.CutPrefix(v, "rsync://"); ok {
		h, _, _ := strings.Cut(rest, "/")
		return h, true
	}
	i := strings.IndexByte(v, ':')
	if i <= 0 || strings.IndexByte(v[:i], '/') >= 0 {
		return "", false
	}
	return v[:i], true
}
