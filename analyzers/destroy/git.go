package destroy

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// recoverable returns "" when git can restore everything under p (a path
// inside the project): p is tracked and `git status --porcelain
// --ignored=no -- p` reports nothing. Otherwise it says, for the model, why
// the delete may lose work. Ignored files (build output, .env) are not
// seen by this check.
func (a *run) recoverable(p string) string {
	if a.opts.SkipGit {
		return "git's ability to restore it was not checked"
	}
	rel, err := filepath.Rel(a.env.project, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return "it is outside the project's git work tree"
	}
	ctx, cancel := context.WithTimeout(a.ctx, a.opts.GitTimeout)
	defer cancel()
	// git status runs the repository's content filters (filter.<x>.clean,
	// .process) on files whose stat data changed: a repository the agent
	// configured could make this check run a command. Reading the
	// configuration runs nothing; with any filter configured, don't ask git.
	if filters, err := a.git(ctx, "config", "--name-only", "--get-regexp", `^filter\.`); err == nil && len(bytes.TrimSpace(filters)) > 0 {
		return "the repository configures content filters, which toolwall does not run to ask git"
	}
	out, err := a.git(ctx, "status", "--porcelain", "--ignored=no", "--ignore-submodules=all", "--", rel)
	if err != nil {
		return "git cannot tell whether it could restore it (" + err.Error() + ")"
	}
	if len(out) > 0 {
		lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
		more := ""
		if len(lines) > 3 {
			more = " and " + strconv.Itoa(len(lines)-3) + " more"
			lines = lines[:3]
		}
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		return "git cannot restore its untracked or modified files (" + strings.Join(lines, ", ") + more + ")"
	}
	if _, err := a.git(ctx, "ls-files", "--error-unmatch", "--", rel); err != nil {
		return "git does not track it, so nothing could restore it"
	}
	return ""
}

// git runs git in the project with a clean environment: no inherited
// GIT_* variables, literal pathspecs, no optional locks (the agent may run
// git at the same time), no fsmonitor hook. Output is capped at 64 KiB.
func (a *run) git(ctx context.Context, args ...string) ([]byte, error) {
	full := append([]string{"-C", a.env.project, "-c", "core.fsmonitor=false", "-c", "core.quotePath=true"}, args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GIT_LITERAL_PATHSPECS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var out capped
	var errb capped
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = a.opts.GitTimeout
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			if i := strings.IndexByte(msg, '\n'); i >= 0 {
				msg = msg[:i]
			}
			return nil, errors.New(msg)
		}
		return nil, err
	}
	return out.Bytes(), nil
}

// capped is a buffer that keeps the first 64 KiB written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := 64<<10 - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
