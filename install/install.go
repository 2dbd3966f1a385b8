package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tidwall/gjson"
	"github.com/tidwall/pretty"
	"github.com/tidwall/sjson"
)

// Options say where to install and what.
type Options struct {
	// Home is the user's home directory (required).
	Home string
	// Project, when set, installs into the project's configuration
	// (`--project`) instead of the user's.
	Project string
	// Binary is the absolute path of the toolwall binary the hooks run.
	Binary string
	// Getenv reads the environment variables that move a host's user
	// directory (COPILOT_HOME); nil reads none.
	Getenv func(string) string
	// Version returns what a host program prints for --version ("" when
	// it cannot be run); nil when host versions are not read. The
	// OpenCode install picks its plugin API by the major version.
	Version func(program string) string
}

// env returns environment variable k ("" when Getenv is nil).
func (o Options) env(k string) string {
	if o.Getenv == nil {
		return ""
	}
	return o.Getenv(k)
}

// userDir is a host's user directory: the absolute path in environment
// variable k when it is set, else rel under the home directory.
func (o Options) userDir(k, rel string) string {
	if d := o.env(k); d != "" {
		if abs, err := filepath.Abs(d); err == nil {
			return abs
		}
	}
	return filepath.Join(o.Home, rel)
}

// base is the directory the host's relative paths start from.
func (o Options) base() string {
	if o.Project != "" {
		return o.Project
	}
	return o.Home
}

// Change is one change made (or, for Find, one hook found).
type Change struct {
	File string
	What string
}

// String returns "FILE: what".
func (c Change) String() string { return c.File + ": " + c.What }

// ErrConflict is returned when a file toolwall would write is the user's
// own (a Cline hook script of the same name, say): it is left alone.
var ErrConflict = errors.New("a file of the user's own is in the way")

// Hook is one hook command found in a host's configuration.
type Hook struct {
	// File is the configuration file.
	File string
	// Command is the command line the host runs.
	Command string
	// Binary is the toolwall binary it runs ("" when it cannot be told).
	Binary string
}

// op is one file of a host's install.
type op interface {
	file() string
	install(o Options, bin string) (changed bool, what string, err error)
	uninstall() (changed bool, what string, err error)
	find() []Hook
}

// Command is the hook command for host name: the binary, quoted for a
// POSIX shell where it needs it, then "hook NAME".
func Command(bin, name string) string { return shellQuote(bin) + " hook " + name }

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%=,", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ours reports whether command runs toolwall's hook for host name — a
// binary named toolwall, or self, followed by "hook NAME" — and returns
// the binary it runs.
func ours(command, name, self string) (string, bool) {
	f := strings.Fields(command)
	if len(f) < 3 || f[len(f)-2] != "hook" || f[len(f)-1] != name {
		return "", false
	}
	bin := strings.Trim(strings.Join(f[:len(f)-2], " "), `'"`)
	b := strings.ToLower(filepath.Base(bin))
	if !strings.HasPrefix(b, "toolwall") && (self == "" || bin != self) {
		return "", false
	}
	return bin, true
}

// backupPath is where the bytes before toolwall's first change are kept.
func backupPath(file string) string { return file + ".toolwall.bak" }

// writeFile writes data to file atomically (a temporary file renamed over
// it), creating its directory, keeping file's permissions when it exists.
func writeFile(file string, data []byte, mode fs.FileMode) error {
	if st, err := os.Stat(file); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".toolwall-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), file)
}

// jsonOp adds hook entries to arrays of a JSON settings file.
type jsonOp struct {
	path string
	// init is the file's content when it does not exist yet.
	init string
	// entries maps an array's sjson path ("hooks.PreToolUse") to the
	// entry toolwall adds there, for a command (see Command).
	entries func(command string) []entry
	name    string
	// self is the binary installing, also recognised as toolwall's.
	self string
}

type entry struct {
	array string
	json  string
}

func (j jsonOp) file() string { return j.path }

// apply returns data with toolwall's entries for command added (or their
// command updated), and how many were added and updated.
func (j jsonOp) apply(data []byte, command string) ([]byte, int, int, error) {
	orig := data
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte(j.init)
	}
	if !gjson.ValidBytes(data) {
		return nil, 0, 0, fmt.Errorf("%s is not valid JSON; fix it first (toolwall does not rewrite a file it cannot read)", j.path)
	}
	added, updated := 0, 0
	for _, e := range j.entries(command) {
		arr := gjson.GetBytes(data, escapePath(e.array))
		if arr.Exists() && !arr.IsArray() {
			return nil, 0, 0, fmt.Errorf("%s: %s is not a list; fix it first", j.path, e.array)
		}
		found := false
		for i, el := range arr.Array() {
			for _, c := range commands(el) {
				bin, ok := ours(c.Str, j.name, j.self)
				if !ok {
					continue
				}
				found = true
				if c.Str != command && bin != "" {
					var err error
					if data, err = sjson.SetBytes(data, fmt.Sprintf("%s.%d.%s", escapePath(e.array), i, c.Path), command); err != nil {
						return nil, 0, 0, err
					}
					updated++
				}
			}
		}
		if found {
			continue
		}
		var err error
		if data, err = sjson.SetRawBytes(data, escapePath(e.array)+".-1", []byte(e.json)); err != nil {
			return nil, 0, 0, err
		}
		added++
	}
	if added+updated > 0 {
		data = pretty.PrettyOptions(data, &pretty.Options{Width: 100, Prefix: "", Indent: indentOf(orig), SortKeys: false})
	}
	return data, added, updated, nil
}

// indentOf returns the indentation a JSON file uses (two spaces when it
// shows none).
func indentOf(data []byte) string {
	for _, line := range bytes.Split(data, []byte("\n"))[1:] {
		if n := len(line) - len(bytes.TrimLeft(line, " \t")); n > 0 {
			return string(line[:n])
		}
	}
	return "  "
}

// remove returns data without toolwall's entries, and without the lists
// and objects their removal leaves empty ("PreToolUse": [], then
// "hooks": {}), which would read as a host's hook configuration that is
// there and does nothing.
func (j jsonOp) remove(data []byte) ([]byte, int, error) {
	n := 0
	for _, e := range j.entries("") {
		removed := false
		for {
			arr := gjson.GetBytes(data, escapePath(e.array))
			idx := slices.IndexFunc(arr.Array(), func(el gjson.Result) bool {
				return slices.ContainsFunc(commands(el), func(c located) bool { _, ok := ours(c.Str, j.name, j.self); return ok })
			})
			if idx < 0 {
				break
			}
			var err error
			if data, err = sjson.DeleteBytes(data, fmt.Sprintf("%s.%d", escapePath(e.array), idx)); err != nil {
				return nil, 0, err
			}
			n++
			removed = true
		}
		if removed {
			var err error
			if data, err = pruneEmpty(data, e.array); err != nil {
				return nil, 0, err
			}
		}
	}
	return data, n, nil
}

// pruneEmpty deletes the list or object at dotted path p when it is
// empty, then each object above it that this leaves empty (never the
// document itself).
func pruneEmpty(data []byte, p string) ([]byte, error) {
	for p != "" {
		v := gjson.GetBytes(data, escapePath(p))
		empty := v.IsArray() && len(v.Array()) == 0 || v.IsObject() && len(v.Map()) == 0
		if !empty {
			return data, nil
		}
		var err error
		if data, err = sjson.DeleteBytes(data, escapePath(p)); err != nil {
			return nil, err
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return data, nil
}

// escapePath escapes the characters sjson paths give a meaning to in
// the keys of a dotted path.
func escapePath(p string) string {
	r := strings.NewReplacer("*", `\*`, "?", `\?`, "#", `\#`, "|", `\|`)
	return r.Replace(p)
}

// located is a command string and its path inside an entry.
type located struct {
	Str, Path string
}

// commands lists the command strings of a hook entry: command, bash or
// powershell at its top or in its hooks list.
func commands(el gjson.Result) []located {
	var out []located
	for _, k := range []string{"command", "bash", "powershell"} {
		if v := el.Get(k); v.Type == gjson.String {
			out = append(out, located{v.Str, k})
		}
	}
	for i, h := range el.Get("hooks").Array() {
		if v := h.Get("command"); v.Type == gjson.String {
			out = append(out, located{v.Str, fmt.Sprintf("hooks.%d.command", i)})
		}
	}
	return out
}

func (j jsonOp) install(o Options, bin string) (bool, string, error) {
	old, err := os.ReadFile(j.path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, "", err
	}
	existed := err == nil
	data, added, updated, err := j.apply(old, Command(bin, j.name))
	if err != nil {
		return false, "", err
	}
	if added == 0 && updated == 0 {
		return false, "already installed", nil
	}
	if existed {
		if _, err := os.Stat(backupPath(j.path)); errors.Is(err, fs.ErrNotExist) {
			if err := writeFile(backupPath(j.path), old, 0o600); err != nil {
				return false, "", fmt.Errorf("backup of %s: %w", j.path, err)
			}
		}
	}
	if err := writeFile(j.path, data, 0o644); err != nil {
		return false, "", err
	}
	var what []string
	if !existed {
		what = append(what, "created")
	}
	if added > 0 {
		what = append(what, fmt.Sprintf("added %d hook entr%s", added, plural(added, "y", "ies")))
	}
	if updated > 0 {
		what = append(what, fmt.Sprintf("pointed %d hook command%s at %s", updated, plural(updated, "", "s"), bin))
	}
	if existed {
		what = append(what, "backup in "+backupPath(j.path))
	}
	return true, strings.Join(what, "; "), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (j jsonOp) uninstall() (bool, string, error) {
	cur, err := os.ReadFile(j.path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, "not installed", nil
	}
	if err != nil {
		return false, "", err
	}
	stripped, n, err := j.remove(cur)
	if err != nil {
		return false, "", err
	}
	if n == 0 {
		return false, "not installed", nil
	}
	command := ""
	if hs := j.find(); len(hs) > 0 {
		command = hs[0].Command
	}
	backup, berr := os.ReadFile(backupPath(j.path))
	if berr == nil {
		// Untouched since the install: the bytes from before it.
		if again, _, _, err := j.apply(backup, command); err == nil && bytes.Equal(again, cur) {
			if err := writeFile(j.path, backup, 0o644); err != nil {
				return false, "", err
			}
			return true, "restored from " + backupPath(j.path), os.Remove(backupPath(j.path))
		}
	} else if created, _, _, err := j.apply(nil, command); err == nil && bytes.Equal(created, cur) {
		if err := os.Remove(j.path); err != nil {
			return false, "", err
		}
		return true, "removed (toolwall created it)", nil
	}
	if err := writeFile(j.path, stripped, 0o644); err != nil {
		return false, "", err
	}
	what := fmt.Sprintf("removed %d hook entr%s", n, plural(n, "y", "ies"))
	if berr == nil {
		what += "; the file changed since the install, so the backup " + backupPath(j.path) + " is kept"
	}
	return true, what, nil
}

func (j jsonOp) find() []Hook {
	data, err := os.ReadFile(j.path)
	if err != nil || !gjson.ValidBytes(data) {
		return nil
	}
	var out []Hook
	seen := map[string]bool{}
	for _, e := range j.entries("") {
		for _, el := range gjson.GetBytes(data, escapePath(e.array)).Array() {
			for _, c := range commands(el) {
				if bin, ok := ours(c.Str, j.name, j.self); ok && !seen[c.Str] {
					seen[c.Str] = true
					out = append(out, Hook{File: j.path, Command: c.Str, Binary: bin})
				}
			}
		}
	}
	return out
}

// fileOp writes a file of toolwall's own (a plugin, a hook script, a
// hooks file no one else writes).
type fileOp struct {
	path    string
	mode    fs.FileMode
	content func(bin string) string
	name    string
	self    string
}

// marker is in every file toolwall writes, to tell it from the user's.
const marker = "toolwall"

func (f fileOp) file() string { return f.path }

func (f fileOp) mine(data []byte) bool {
	return bytes.Contains(data, []byte(marker)) && bytes.Contains(data, []byte("hook "+f.name))
}

func (f fileOp) install(o Options, bin string) (bool, string, error) {
	want := []byte(f.content(bin))
	old, err := os.ReadFile(f.path)
	switch {
	case err == nil && bytes.Equal(old, want):
		return false, "already installed", nil
	case err == nil && !f.mine(old):
		return false, "", fmt.Errorf("%s: %w; toolwall leaves it alone: chain `%s` from it yourself", f.path, ErrConflict, Command(bin, f.name))
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return false, "", err
	}
	if err := writeFile(f.path, want, f.mode); err != nil {
		return false, "", err
	}
	if err == nil {
		return true, "updated (toolwall's own file)", nil
	}
	return true, "created", nil
}

func (f fileOp) uninstall() (bool, string, error) {
	old, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) || err == nil && !f.mine(old) {
		return false, "not installed", nil
	}
	if err != nil {
		return false, "", err
	}
	return true, "removed", os.Remove(f.path)
}

func (f fileOp) find() []Hook {
	data, err := os.ReadFile(f.path)
	if err != nil || !f.mine(data) {
		return nil
	}
	bin := ""
	for _, line := range strings.Split(string(data), "\n") {
		if _, after, ok := strings.Cut(line, binaryTag); ok {
			bin = strings.TrimSpace(after)
			break
		}
	}
	return []Hook{{File: f.path, Command: Command(bin, f.name), Binary: bin}}
}

// binaryTag starts the comment line naming the binary in every file
// toolwall writes ("# toolwall-binary: /usr/local/bin/toolwall").
const binaryTag = "toolwall-binary: "

// retired is a file of toolwall's own that the host installed does not
// run (a plugin for another API version): install takes it out, so that
// the host neither fails to load it nor runs two guards; uninstall takes
// it out too, and Find still reports it for doctor.
type retired struct {
	fileOp
	why string
}

func (r retired) install(o Options, bin string) (bool, string, error) {
	changed, _, err := r.fileOp.uninstall()
	if !changed || err != nil {
		return false, "", err
	}
	return true, "removed: " + r.why, nil
}
