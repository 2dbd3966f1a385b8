package engine

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// gitTracked reports whether git tracks path in the project's work tree
// (`git ls-files --error-unmatch`), run with a clean GIT_* environment,
// literal pathspecs, no optional locks and a one-second deadline. Any
// failure (no git, not a repository, a timeout) is "not tracked". The
// gate asks it only while chain memory is off.
func gitTracked(ctx context.Context, project, path string) bool {
	rel, err := filepath.Rel(project, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", "-C", project, "-c", "core.fsmonitor=false", "ls-files", "--error-unmatch", "--", rel)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "GIT_LITERAL_PATHSPECS=1", "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0")
	cmd.WaitDelay = time.Second
	return cmd.Run() == nil
}
