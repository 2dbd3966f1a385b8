package ops_test

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/ops"
	"github.com/toolwall/toolwall/shell"
)

func ExampleAnalyzer() {
	command := "git -C ../api push origin +HEAD:main && sudo systemctl restart nginx"
	call := toolwall.NewBashCall(command)
	call.Cwd, call.Home = "/home/u/proj", "/home/u"
	script, err := shell.Read(command, shell.Options{Cwd: call.Cwd, Home: call.Home})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := (&analysis.Report{}).For(ops.Analyzer.Name)
	ops.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: script}, r)
	for _, f := range r.Findings {
		fmt.Println(f.Action, f.Rule, f.Score)
		fmt.Println(f.Reason)
	}
	for _, e := range r.Effects {
		fmt.Println(e.Tag, e.Path, e.Detail)
	}
	// Output:
	// ask git.push-force 0.6
	// `git -C ../api push origin +HEAD:main` needs confirmation: a forced push overwrites the remote branch and the commits other people pushed there are lost. Use `git push --force-with-lease` (without --force or a `+` refspec), or ask the user.
	// delete /home/u/api protected
	// process-control
}
