package trajectory_test

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
	"github.com/toolwall/toolwall/trajectory"
)

// Example: three refused calls in one turn make the session critical; a
// harmless write is then refused and a read is not; the next user turn
// lowers the level again.
func Example() {
	ctx := context.Background()
	store := session.NewMemory(session.Options{}) // session.Open(path, …) in a hook
	tr, _ := trajectory.New(trajectory.Options{Store: store})
	denied := func(rule string) toolwall.Verdict {
		return toolwall.Verdict{Action: toolwall.Deny, Findings: []toolwall.Finding{{Rule: rule, Action: toolwall.Deny}}}
	}
	bash := toolwall.Call{Tool: toolwall.ToolBash, Session: "s1"}
	for _, rule := range []string{"rm.dangerous-target", "secrets.read", "remote.pipe-to-shell"} {
		tr.Apply(ctx, bash, denied(rule)) // the gate's verdicts, as engine.Evaluate passes them
	}
	write := tr.Apply(ctx, toolwall.Call{Tool: toolwall.ToolWrite, Session: "s1"}, toolwall.Verdict{})
	read := tr.Apply(ctx, toolwall.Call{Tool: toolwall.ToolRead, Session: "s1"}, toolwall.Verdict{})
	fmt.Println("write:", write.Action, write.Rules())
	fmt.Println("read:", read.Action)

	store.AdvanceTurn(ctx, "s1") // the user's next prompt
	st, _ := tr.State(ctx, "s1")
	fmt.Println("next turn:", st.Level)
	// Output:
	// write: deny [trajectory.critical]
	// read: allow
	// next turn: high
}

// ExampleSlot: the embedding application reads and sets a session's
// level, the tool-executor framework's TrajectoryRiskSlot.
func ExampleSlot() {
	ctx := context.Background()
	tr, _ := trajectory.New(trajectory.Options{Store: session.NewMemory(session.Options{})})
	slot := tr.Slot("s1")
	slot.Store(ctx, trajectory.Critical, "operator: prompt injection suspected")
	level, _ := slot.Load(ctx)
	fmt.Println(level)
	st, _ := tr.State(ctx, "s1")
	fmt.Println(trajectory.Describe(st))
	// Output:
	// critical
	// trajectory risk 3 (critical): set to 3: operator: prompt injection suspected in turn 0
}
