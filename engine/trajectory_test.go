package engine_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/engine"
	"github.com/toolwall/toolwall/internal/rows"
	"github.com/toolwall/toolwall/policy"
	"github.com/toolwall/toolwall/trajectory"
)

// TestTrajectory runs testdata/trajectory.tsv: refusals raise a session's
// risk to critical, a later harmless write (and a shell call, and a
// fetch) is refused while reads are not, and the level falls over turns;
// every line is judged by a new engine on one state file, so the level
// survives across hook processes.
func TestTrajectory(t *testing.T) {
	cfg, err := policy.Parse("config.toml", []byte("[trajectory]\nenabled = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(t.TempDir(), "state.db")
	ctx := context.Background()
	for _, r := range rows.Read(t, "testdata/trajectory.tsv", 0) {
		n, f := r.Line, r.Fields
		e := engine.New(engine.Options{Config: cfg, Memory: engine.Persistent, State: state, Logger: slog.New(slog.DiscardHandler)})
		if e.Trajectory() == nil {
			t.Fatal("[trajectory] enabled, but the engine has none")
		}
		if len(f) == 1 && f[0] == "turn" {
			if _, err := e.AdvanceTurn(ctx, "s"); err != nil {
				t.Fatal(err)
			}
			e.Close()
			continue
		}
		if len(f) != 4 {
			t.Fatalf("trajectory.tsv:%d: %d fields, want 4", n, len(f))
		}
		call := toolwall.Call{Tool: f[0], Input: json.RawMessage(f[1])}
		if f[0] == toolwall.ToolBash {
			call = toolwall.NewBashCall(f[1])
		}
		call.Session, call.Cwd, call.Project, call.Home = "s", "/w", "/w", "/home/u"
		v := e.Evaluate(ctx, call)
		if v.Action.String() != f[2] || f[3] != "-" && (len(v.Rules()) == 0 || v.Rules()[0] != f[3]) {
			t.Errorf("trajectory.tsv:%d: %s %s → %s %v (%s), want %s %s", n, f[0], f[1], v.Action, v.Rules(), v.Reason, f[2], f[3])
		}
		if f[3] == trajectory.RuleCritical && !strings.Contains(v.Reason, "level 3 (critical)") {
			t.Errorf("trajectory.tsv:%d: the reason does not name the level: %s", n, v.Reason)
		}
		if !v.Action.Stops() {
			e.RecordInvocation(ctx, call, true)
		}
		e.Close()
	}
}

// TestTrajectoryOff: without [trajectory] enabled, or without session
// memory, the engine has no trajectory and refusals change nothing else.
func TestTrajectoryOff(t *testing.T) {
	if e := engine.New(engine.Options{Memory: engine.Volatile}); e.Trajectory() != nil {
		t.Error("a trajectory without [trajectory] enabled")
	}
	cfg, _ := policy.Parse("c", []byte("[trajectory]\nenabled = true\n"))
	if e := engine.New(engine.Options{Config: cfg}); e.Trajectory() != nil {
		t.Error("a trajectory without session memory")
	}
	e := engine.New(engine.Options{Memory: engine.Volatile})
	ctx := context.Background()
	for range 4 {
		c := toolwall.NewBashCall("rm -rf /")
		c.Session = "s"
		e.Evaluate(ctx, c)
	}
	w := toolwall.Call{Tool: toolwall.ToolWrite, Input: json.RawMessage(`{"file_path":"/w/a","content":"x"}`), Session: "s", Cwd: "/w"}
	if v := e.Evaluate(ctx, w); v.Action != toolwall.Allow || slices.Contains(v.Rules(), trajectory.RuleCritical) {
		t.Errorf("write after refusals without a trajectory: %v %v", v.Action, v.Rules())
	}
}
