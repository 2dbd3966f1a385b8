package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/toolwall/toolwall"
	"github.com/toolwall/toolwall/analyzers"
	"github.com/toolwall/toolwall/gate"
	"github.com/toolwall/toolwall/pipeline"
	"github.com/toolwall/toolwall/session"
)

// The shell gate (every built-in analyzer, with session memory) guarding a
// real shell tool, with memoize and the breaker: a deny that never runs, a
// warn that runs, and a cached repeat.
func Example_shellGate() {
	dir, _ := os.MkdirTemp("", "toolwall-example")
	defer os.RemoveAll(dir)
	os.WriteFile(dir+"/notes.txt", []byte("hello\n"), 0o644)

	g := gate.New(gate.Options{
		Analyzers: analyzers.All(),
		Store:     session.NewMemory(session.Options{}),
		Logger:    exampleLogger(),
	})
	breaker := pipeline.NewBreaker(pipeline.DefaultBreakerOptions())
	p, err := pipeline.NewBuilder().
		Use(breaker.Middleware()).
		Use(pipeline.Shield(g, exampleLogger())).
		Use(pipeline.Memoize(pipeline.MemoOptions{TTL: 1})).
		Core(pipeline.Registry{toolwall.ToolBash: shellTool{dir}}).
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	run := func(cmd string) *pipeline.Result {
		call := toolwall.NewBashCall(cmd)
		call.Turn, call.Session, call.Cwd, call.Home = 1, "example", dir, "/home/user"
		r, err := p.Execute(context.Background(), &pipeline.Request{Call: call})
		if err != nil {
			fmt.Println("error:", err)
			return &pipeline.Result{}
		}
		return r
	}

	r := run("rm -rf ~")
	fmt.Println("deny:", r.IsError, strings.HasPrefix(r.Output, "blocked by safety shield: `rm -rf ~` (run as `rm -rf /home/user`) was refused"))
	r = run("git -C . $SUB --version")
	fmt.Println("warn ran:", !r.IsError, strings.HasPrefix(r.Output, "git version"))
	r = run("cat notes.txt")
	fmt.Printf("first: cached=%v %q\n", r.Cached, r.Output)
	r = run("cat notes.txt")
	fmt.Printf("again: cached=%v %q\n", r.Cached, r.Output)
	// Output:
	// deny: true true
	// level=WARN msg="safety shield warning" tool=Bash reason="`git -C . $SUB --version` was allowed with a warning: the git subcommand is only known at run time, so it may be a destructive one (reset --hard, clean -f, push --force). Write the subcommand out literally." category=git score=0.45
	// warn ran: true true
	// first: cached=false "hello\n"
	// again: cached=true "hello\n"
}
