package mcpargs_test

import (
	"encoding/json"
	"fmt"

	"github.com/toolwall/toolwall/mcpargs"
)

// A filesystem server's move_file becomes the shell command the engine
// judges, with both paths quoted.
func ExampleExtract() {
	calls, err := mcpargs.Extract("move_file", json.RawMessage(`{"source":"notes.txt","destination":"~/.bashrc"}`),
		mcpargs.Places{Cwd: "/home/me/app", Home: "/home/me"})
	if err != nil {
		panic(err)
	}
	for _, c := range calls {
		fmt.Println(c.Tool, string(c.Input))
	}
	// Output: Bash {"command":"mv -- /home/me/app/notes.txt /home/me/.bashrc"}
}
