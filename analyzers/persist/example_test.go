package persist_test

import (
	"context"
	"fmt"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analysis"
	"github.com/toolwall/toolwall/analyzers/persist"
	"github.com/toolwall/toolwall/shell"
)

// The analyzer on its own: a cron job written through sudo tee is denied,
// a new account is asked.
func Example() {
	cmd := `echo '* * * * * root /tmp/x' | sudo tee /etc/cron.d/job && sudo useradd -o -u 0 backup2`
	s, err := shell.Read(cmd, shell.Options{Cwd: "/home/u/proj", Home: "/home/u"})
	if err != nil {
		panic(err)
	}
	call := toolwall.NewBashCall(cmd)
	call.Cwd, call.Project, call.Home = "/home/u/proj", "/home/u/proj", "/home/u"
	r := (&analysis.Report{}).For(persist.Analyzer.Name)
	persist.Analyzer.Run(context.Background(), &analysis.Input{Call: call, Script: s}, r)
	for _, f := range r.Findings {
		fmt.Println(f.Action, f.Rule)
	}
	// Output:
	// deny persist.write-protected
	// ask persist.account
}
