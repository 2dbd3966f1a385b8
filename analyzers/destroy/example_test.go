package destroy_test

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/destroy"
	"github.com/toolwall/toolwall/shell"
)

func Example() {
	cmd := "cd /tmp && rm -rf ~/*"
	s, err := shell.Read(cmd, shell.Options{Cwd: "/workspace/app", Home: "/home/user"})
	if err != nil {
		panic(err)
	}
	call := toolwall.NewBashCall(cmd)
	call.Cwd, call.Project, call.Home = "/workspace/app", "/workspace/app", "/home/user"
	r := (&analysis.Report{}).For(destroy.Analyzer.Name)
	destroy.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
	for _, f := range r.Findings {
		fmt.Println(f.Action, f.Rule)
		fmt.Println(f.Reason)
	}
	// Output:
	// deny rm.dangerous-target
	// `rm -rf ~/*` (run as `rm -rf /home/user/*`) was refused: it recursively deletes your home directory (/home/user/*), which cannot be undone. Delete only the specific files or directories you mean, by their path inside the project.
}
