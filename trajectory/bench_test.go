package trajectory_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/trajectory"
)

// BenchmarkApply is the trajectory's cost on a call the gate allows, a
// write of a session with a few events: one read of the store. The hook
// pays the SQLite case (plus opening the file) on such calls when
// [trajectory] is enabled.
func BenchmarkApply(b *testing.B) {
	for _, name := range []string{"memory", "sqlite"} {
		b.Run(name, func(b *testing.B) {
			var st session.Store = session.NewMemory(session.Options{})
			if name == "sqlite" {
				var err error
				if st, err = session.Open(filepath.Join(b.TempDir(), "state.db"), session.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			defer st.Close()
			tr, _ := trajectory.New(trajectory.Options{Store: st})
			ctx := context.Background()
			tr.Raise(ctx, "s", 1, "", "refused (rm.root)")
			tr.Raise(ctx, "s", 1, "", "refused (secrets.read)")
			call := toolwall.Call{Tool: toolwall.ToolWrite, Session: "s"}
			b.ReportAllocs()
			for b.Loop() {
				tr.Apply(ctx, call, toolwall.Verdict{})
			}
		})
	}
}
