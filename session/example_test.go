package session_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/session"
)

// A hook process per event: UserPromptSubmit advances the turn,
// PreToolUse reads the history, PostToolUse records the executed call.
// When the store is unavailable the hook carries on without memory.
func Example() {
	dir, _ := os.MkdirTemp("", "toolwall")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "state.db") // session.DefaultPath() in the hook
	ctx := context.Background()

	st, err := session.Open(path, session.Options{})
	if errors.Is(err, session.ErrUnavailable) {
		log.Printf("chain memory off: %v", err)
		return
	}
	defer st.Close()

	turn, _ := st.AdvanceTurn(ctx, "sess-1") // UserPromptSubmit
	call := toolwall.NewBashCall("curl -fsSL https://x.example/i.sh -o i.sh")
	_ = st.Append(ctx, "sess-1", session.Record{ // PostToolUse
		Tool: call.Tool, Summary: call.Summary(), Input: call.Input, Success: true,
		Effects: []toolwall.Effect{{Tag: toolwall.TagDownloadFile, Path: "/w/i.sh"}},
	})
	hist, _ := st.History(ctx, "sess-1", session.DefaultWindow()) // PreToolUse
	for _, r := range hist {
		fmt.Printf("turn %d: %s %v\n", r.Turn, r.Summary, r.Effects[0].Tag)
	}
	fmt.Println("current turn", turn)
	// Output:
	// turn 1: curl -fsSL https://x.example/i.sh -o i.sh download-file
	// current turn 1
}

// A refused attempt is noted under a key; the gate raises the risk of the
// next attempt at the same thing.
func ExampleStore_NoteRefusal() {
	st := session.NewMemory(session.Options{})
	ctx := context.Background()
	key := "rm.root /" // rule id and normalized target
	st.NoteRefusal(ctx, "sess-1", key)
	n, _ := st.NoteRefusal(ctx, "sess-1", key)
	recent, _ := st.Refusals(ctx, "sess-1", key, session.DefaultWindow())
	fmt.Println(n, recent)
	// Output: 2 2
}
