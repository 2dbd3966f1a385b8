package file

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/audit"
	"github.com/toolwall/toolwall/executor"
	"github.com/toolwall/toolwall/paths"
	"github.com/toolwall/toolwall/pipeline"
)

// Tool names of the file executor; Read, Write and Edit are the names the
// gate's file analyzers judge.
const (
	ToolRead  = toolwall.ToolRead
	ToolWrite = toolwall.ToolWrite
	ToolEdit  = toolwall.ToolEdit
	ToolLS    = "LS"
	ToolGlob  = "Glob"
)

// Defaults of [Options].
const (
	DefaultMaxRead    = 256 << 10
	DefaultMaxEntries = 1000
)

// Rule ids of the executor's own refusals.
const (
	RuleOutside   = "file.outside-roots" // the canonical path is outside every root
	RuleDenyRead  = "file.deny-read"     // the read sandbox denies the path
	RuleMalformed = "file.malformed"     // input that cannot be read
)

// Options configure [New].
type Options struct {
	// Gate judges every call before it runs (its file analyzers hold the
	// write rules: protected files, shell start-up files, keys, ...); nil
	// refuses every call.
	Gate toolwall.Shield
	// Context is the executor's privilege (see executor.Boundary).
	Context toolwall.ExecContext
	// Audit receives each call's record before it runs; nil writes none.
	Audit audit.Sink
	// Remember records calls in the gate's session memory.
	Remember bool
	// Project is the project root, and the default root.
	Project string
	// Roots are the directories calls may touch (default: Project). A
	// path whose canonical form — symbolic links resolved — is outside
	// every root is refused.
	Roots []string
	// DenyRead and AllowRead are the read sandbox of the tool-executor framework
	// ([tools.file]): a read is refused when the canonical path matches a
	// DenyRead glob and no AllowRead glob. Empty DenyRead means the
	// sandbox is inactive, whatever AllowRead says. Globs use ** for any
	// number of directories and match absolute canonical paths
	// ("**/*.env", "**/secrets/**").
	DenyRead, AllowRead []string
	// MaxRead bounds the bytes Read returns (default DefaultMaxRead).
	MaxRead int64
	// MaxEntries bounds the names LS and Glob return (default
	// DefaultMaxEntries).
	MaxEntries int
}

// Executor runs file operations — Read, Write, Edit, LS, Glob — inside
// its roots, each call re-checked by the gate. Safe for concurrent use.
type Executor struct {
	opts     Options
	roots    []string // canonical
	boundary executor.Boundary
}

// New returns a file executor. Invalid globs and roots that cannot be
// resolved are errors.
func New(opts Options) (*Executor, error) {
	if opts.MaxRead <= 0 {
		opts.MaxRead = DefaultMaxRead
	}
	if opts.MaxEntries <= 0 {
		opts.MaxEntries = DefaultMaxEntries
	}
	roots := opts.Roots
	if len(roots) == 0 && opts.Project != "" {
		roots = []string{opts.Project}
	}
	e := &Executor{opts: opts, boundary: executor.Boundary{Gate: opts.Gate, Context: opts.Context, Audit: opts.Audit, Driver: "executor:file", Remember: opts.Remember}}
	for _, r := range roots {
		c, err := filepath.EvalSymlinks(r)
		if err != nil {
			return nil, fmt.Errorf("file: root %s: %w", r, err)
		}
		c, err = filepath.Abs(c)
		if err != nil {
			return nil, fmt.Errorf("file: root %s: %w", r, err)
		}
		e.roots = append(e.roots, c)
	}
	for _, g := range slices.Concat(opts.DenyRead, opts.AllowRead) {
		if !doublestar.ValidatePattern(g) {
			return nil, fmt.Errorf("file: invalid glob %q in deny_read/allow_read", g)
		}
	}
	return e, nil
}

func schema(props string, required ...string) json.RawMessage {
	req, _ := json.Marshal(required)
	return json.RawMessage(`{"type":"object","properties":{` + props + `},"required":` + string(req) + `}`)
}

// Definitions defines Read, Write, Edit, LS and Glob.
func (e *Executor) Definitions() []executor.Definition {
	return []executor.Definition{
		{Name: ToolRead, Description: "Read a text file (optionally lines offset.. offset+limit-1, 1-based).",
			InputSchema: schema(`"file_path":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}`, "file_path")},
		{Name: ToolWrite, Description: "Write a file, creating it and its directories.",
			InputSchema: schema(`"file_path":{"type":"string"},"content":{"type":"string"}`, "file_path", "content")},
		{Name: ToolEdit, Description: "Replace old_string with new_string in a file; old_string must be unique unless replace_all.",
			InputSchema: schema(`"file_path":{"type":"string"},"old_string":{"type":"string"},"new_string":{"type":"string"},"replace_all":{"type":"boolean"}`, "file_path", "old_string", "new_string")},
		{Name: ToolLS, Description: "List a directory.", InputSchema: schema(`"path":{"type":"string"}`, "path")},
		{Name: ToolGlob, Description: "Find files matching a glob (** for any depth) under path (default: the working directory).",
			InputSchema: schema(`"pattern":{"type":"string"},"path":{"type":"string"}`, "pattern")},
	}
}

// Confirmation is the gate's Ask for the call.
func (e *Executor) Confirmation(ctx context.Context, call toolwall.Call) *pipeline.Confirmation {
	if !executor.Has(e.Definitions(), call.Tool) {
		return nil
	}
	return e.boundary.Confirmation(ctx, call)
}

// Speculatable is true for Read, LS and Glob: they change nothing and
// send nothing out (the gate and the sandbox still judge them when they
// run).
func (e *Executor) Speculatable(call toolwall.Call) bool {
	switch call.Tool {
	case ToolRead, ToolLS, ToolGlob:
		return true
	}
	return false
}

// input is every field the tools take.
type input struct {
	FilePath   *string `json:"file_path"`
	Path       *string `json:"path"`
	Pattern    *string `json:"pattern"`
	Content    *string `json:"content"`
	OldString  *string `json:"old_string"`
	NewString  *string `json:"new_string"`
	ReplaceAll bool    `json:"replace_all"`
	Offset     int     `json:"offset"`
	Limit      int     `json:"limit"`
}

// Refusal is the executor's own refusal of a path; it is an error.
type Refusal struct{ Rule, Reason string }

func (r *Refusal) Error() string { return r.Rule + ": " + r.Reason }

// Execute runs one call: resolve the path to its canonical form inside a
// root, let the gate judge the call with that path, write the audit
// record, apply the read sandbox, then do the operation through an
// os.Root, so a symbolic link swapped in meanwhile cannot lead outside.
func (e *Executor) Execute(ctx context.Context, req *executor.Request) (*executor.Output, error) {
	tool := req.Call.Tool
	if !executor.Has(e.Definitions(), tool) {
		return executor.UnknownTool(tool), nil
	}
	var in input
	if err := json.Unmarshal(req.Call.Input, &in); err != nil {
		return e.boundary.Refuse(ctx, req.Call, toolwall.Refusal("executor", RuleMalformed, "the input is not a JSON object: "+err.Error())), nil
	}
	cwd := req.Call.Cwd
	if cwd == "" {
		cwd = e.opts.Project
	}
	target, err := e.target(tool, &in, cwd)
	if err != nil {
		return e.boundary.Refuse(ctx, req.Call, toolwall.Refusal("executor", RuleMalformed, err.Error())), nil
	}
	canon, root, ref := e.resolve(target)
	if ref != nil {
		return e.boundary.Refuse(ctx, req.Call, toolwall.Refusal("executor", ref.Rule, ref.Reason)), nil
	}
	// The gate judges the canonical path: a link cannot hide its target.
	call := req.Call
	call.Input = withPath(call.Input, tool, canon)
	if call.Project == "" {
		call.Project = e.opts.Project
	}
	call.Cwd = cwd
	a := e.boundary.Admit(ctx, req, call)
	if a.Refusal != nil {
		return a.Refusal, nil
	}
	text, wrote, truncated, err := e.run(tool, &in, canon, root)
	out := &executor.Output{Tool: tool, Text: text, Wrote: wrote, Truncated: truncated, Verdict: &a.Verdict, AuditID: a.AuditID}
	var rf *Refusal
	switch {
	case errors.As(err, &rf):
		out.IsError, out.Text = true, "refused by toolwall ["+rf.Rule+"]: "+rf.Reason
	case err != nil:
		out.IsError, out.Text = true, err.Error()
	}
	o := audit.Outcome{Success: !out.IsError, Truncated: truncated}
	if out.IsError {
		o.Error = out.Text
	}
	e.boundary.Done(ctx, a, o)
	return out, nil
}

// target is the path a call names, absolute.
func (e *Executor) target(tool string, in *input, cwd string) (string, error) {
	var p *string
	switch tool {
	case ToolRead, ToolWrite, ToolEdit:
		p = in.FilePath
		if p == nil {
			return "", errors.New(`the call has no string "file_path"`)
		}
	case ToolLS:
		p = in.Path
		if p == nil {
			return "", errors.New(`the call has no string "path"`)
		}
	case ToolGlob:
		if in.Pattern == nil || *in.Pattern == "" {
			return "", errors.New(`the call has no string "pattern"`)
		}
		p = in.Path
		if p == nil {
			p = &cwd
		}
	}
	if strings.ContainsRune(*p, 0) || *p == "" {
		return "", errors.New("the path is empty or holds a NUL byte")
	}
	abs := paths.Abs(*p, cwd)
	if !filepath.IsAbs(abs) {
		return "", fmt.Errorf("the path %q is relative and there is no working directory", *p)
	}
	return abs, nil
}

// resolve returns the canonical form of p (symbolic links resolved in its
// longest existing prefix) and the root holding it, or a refusal.
func (e *Executor) resolve(p string) (canon, root string, ref *Refusal) {
	canon = canonical(p)
	for _, r := range e.roots {
		if paths.Under(canon, r) {
			return canon, r, nil
		}
	}
	why := ""
	if canon != p {
		why = " (it resolves to " + canon + " through a symbolic link)"
	}
	return "", "", &Refusal{Rule: RuleOutside, Reason: fmt.Sprintf("%s is outside the directories this executor may touch (%s)%s. Work inside the project.", p, strings.Join(e.roots, ", "), why)}
}

// canonical resolves the symbolic links of the longest existing prefix of
// p and appends the rest.
func canonical(p string) string {
	rest := ""
	cur := filepath.Clean(p)
	for {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return filepath.Join(cur, rest)
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// withPath returns input with the path field set to canon.
func withPath(raw json.RawMessage, tool, canon string) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return raw
	}
	key := "file_path"
	if tool == ToolLS || tool == ToolGlob {
		key = "path"
	}
	m[key] = canon
	b, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return b
}

// denied applies the read sandbox to a canonical path.
func (e *Executor) denied(canon string) bool {
	if len(e.opts.DenyRead) == 0 {
		return false
	}
	match := func(globs []string) bool {
		return slices.ContainsFunc(globs, func(g string) bool { ok, _ := doublestar.Match(g, canon); return ok })
	}
	return match(e.opts.DenyRead) && !match(e.opts.AllowRead)
}

func (e *Executor) denyRead(canon string) *Refusal {
	return &Refusal{Rule: RuleDenyRead, Reason: fmt.Sprintf("reading %s is denied by the read sandbox (deny_read). Do not read it; ask the user for what you need from it.", canon)}
}

// run does the operation through an os.Root at root.
func (e *Executor) run(tool string, in *input, canon, root string) (text string, wrote, truncated bool, err error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return "", false, false, err
	}
	defer r.Close()
	rel, err := filepath.Rel(root, canon)
	if err != nil {
		return "", false, false, err
	}
	switch tool {
	case ToolRead:
		if e.denied(canon) {
			return "", false, false, e.denyRead(canon)
		}
		return e.read(r, rel, in)
	case ToolWrite:
		if in.Content == nil {
			return "", false, false, errors.New(`the call has no string "content"`)
		}
		if err := r.MkdirAll(filepath.Dir(rel), 0o755); err != nil {
			return "", false, false, err
		}
		mode := fs.FileMode(0o644)
		if info, err := r.Stat(rel); err == nil {
			mode = info.Mode().Perm()
		}
		if err := r.WriteFile(rel, []byte(*in.Content), mode); err != nil {
			return "", false, false, err
		}
		return fmt.Sprintf("wrote %d bytes to %s", len(*in.Content), canon), true, false, nil
	case ToolEdit:
		// An edit reveals whether old_string is in the file: a read.
		if e.denied(canon) {
			return "", false, false, e.denyRead(canon)
		}
		return e.edit(r, rel, canon, in)
	case ToolLS:
		return e.list(r, rel)
	default:
		return e.glob(r, rel, root, *in.Pattern)
	}
}

// read returns the file's text, lines offset..offset+limit-1 when given,
// bounded by MaxRead. The file opened is checked again by its real path
// (a link swapped in after the check cannot reach a denied file).
func (e *Executor) read(r *os.Root, rel string, in *input) (string, bool, bool, error) {
	f, err := r.Open(rel)
	if err != nil {
		return "", false, false, err
	}
	defer f.Close()
	if real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err == nil && e.denied(real) {
		return "", false, false, e.denyRead(real)
	}
	if info, err := f.Stat(); err == nil && info.IsDir() {
		return "", false, false, fmt.Errorf("%s is a directory; use LS", rel)
	}
	data, err := io.ReadAll(io.LimitReader(f, e.opts.MaxRead+1))
	if err != nil {
		return "", false, false, err
	}
	truncated := int64(len(data)) > e.opts.MaxRead
	if truncated {
		data = data[:e.opts.MaxRead]
	}
	if !utf8.Valid(data) && bytes.IndexByte(data, 0) >= 0 {
		return fmt.Sprintf("[binary file: %d bytes]", len(data)), false, truncated, nil
	}
	text := string(data)
	if in.Offset > 0 || in.Limit > 0 {
		lines := strings.SplitAfter(text, "\n")
		from := max(in.Offset-1, 0)
		to := len(lines)
		if in.Limit > 0 {
			to = min(from+in.Limit, len(lines))
		}
		if from >= len(lines) {
			from, to = len(lines), len(lines)
		}
		text = strings.Join(lines[from:to], "")
	}
	if truncated {
		text += fmt.Sprintf("\n[toolwall: file cut at %d bytes]", e.opts.MaxRead)
	}
	return text, false, truncated, nil
}

func (e *Executor) edit(r *os.Root, rel, canon string, in *input) (string, bool, bool, error) {
	if in.OldString == nil || in.NewString == nil {
		return "", false, false, errors.New(`the call needs string "old_string" and "new_string"`)
	}
	if *in.OldString == "" || *in.OldString == *in.NewString {
		return "", false, false, errors.New("old_string must be non-empty and differ from new_string")
	}
	info, err := r.Stat(rel)
	if err != nil {
		return "", false, false, err
	}
	data, err := r.ReadFile(rel)
	if err != nil {
		return "", false, false, err
	}
	n := strings.Count(string(data), *in.OldString)
	switch {
	case n == 0:
		return "", false, false, fmt.Errorf("old_string was not found in %s", canon)
	case n > 1 && !in.ReplaceAll:
		return "", false, false, fmt.Errorf("old_string appears %d times in %s; make it unique or set replace_all", n, canon)
	}
	out := strings.Replace(string(data), *in.OldString, *in.NewString, map[bool]int{true: -1, false: 1}[in.ReplaceAll])
	if err := r.WriteFile(rel, []byte(out), info.Mode().Perm()); err != nil {
		return "", false, false, err
	}
	return fmt.Sprintf("replaced %d occurrence(s) in %s", map[bool]int{true: n, false: 1}[in.ReplaceAll], canon), true, false, nil
}

func (e *Executor) list(r *os.Root, rel string) (string, bool, bool, error) {
	f, err := r.Open(rel)
	if err != nil {
		return "", false, false, err
	}
	defer f.Close()
	ents, err := f.ReadDir(e.opts.MaxEntries + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return "", false, false, err
	}
	truncated := len(ents) > e.opts.MaxEntries
	ents = ents[:min(len(ents), e.opts.MaxEntries)]
	names := make([]string, len(ents))
	for i, d := range ents {
		names[i] = d.Name()
		if d.IsDir() {
			names[i] += "/"
		}
	}
	slices.Sort(names)
	text := strings.Join(names, "\n")
	if truncated {
		text += fmt.Sprintf("\n[toolwall: listing cut at %d entries]", e.opts.MaxEntries)
	}
	return text, false, truncated, nil
}

func (e *Executor) glob(r *os.Root, rel, root, pattern string) (string, bool, bool, error) {
	if !doublestar.ValidatePattern(pattern) || strings.HasPrefix(pattern, "/") || slices.Contains(strings.Split(pattern, "/"), "..") {
		return "", false, false, &Refusal{Rule: RuleMalformed, Reason: fmt.Sprintf("the pattern %q is not a relative glob; give a pattern like \"**/*.go\" and the directory in \"path\"", pattern)}
	}
	dir := filepath.ToSlash(rel)
	if dir != "." {
		pattern = dir + "/" + pattern
	}
	var out []string
	truncated := false
	err := doublestar.GlobWalk(r.FS(), pattern, func(p string, _ fs.DirEntry) error {
		if len(out) == e.opts.MaxEntries {
			truncated = true
			return doublestar.SkipDir
		}
		out = append(out, filepath.Join(root, filepath.FromSlash(p)))
		return nil
	}, doublestar.WithNoFollow())
	if err != nil {
		return "", false, false, err
	}
	slices.Sort(out)
	text := strings.Join(out, "\n")
	if truncated {
		text += fmt.Sprintf("\n[toolwall: matches cut at %d]", e.opts.MaxEntries)
	}
	return text, false, truncated, nil
}
